import { Api } from "grammy";
import { env } from "@/lib/env";

/** A Bot API client for one token, at TELEGRAM_API_ROOT (a local fake server in tests). */
export const botApi = (token: string) => new Api(token, { apiRoot: env().TELEGRAM_API_ROOT });
