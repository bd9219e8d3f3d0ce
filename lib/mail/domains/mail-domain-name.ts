import { z } from "zod";
import { env } from "@/lib/env";

/** The instance's default mail domain (MAIL_DOMAIN). */
export const defaultMailDomain = () => env().MAIL_DOMAIN;

/** Host name this server answers as (EHLO, MX target): MAIL_HOSTNAME, else the PUBLIC_URL host. */
export const mailHostname = () => env().MAIL_HOSTNAME ?? new URL(env().publicUrl).hostname;

/** A domain an owner may add: lower-case ASCII labels (IDNs in their xn-- form), at least two labels. */
export const domainName = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(/^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/, "must be a domain name like example.com (IDNs in xn-- form)");
