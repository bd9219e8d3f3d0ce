import { z } from "zod";
import type { Db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { createFirstOwner } from "@/lib/owners/create-owner";
import { consumeSetupToken } from "@/lib/owners/setup-token";
import { parseOrThrow } from "@/lib/validation";

export const setupInput = z
  .object({
    token: z.string().min(1, "The setup link has no token.").max(200),
    email: z.email("Enter a valid email address.").max(320),
    password: z.string().min(10, "Use at least 10 characters.").max(1000),
    projectName: z.string().trim().min(1, "Name the first project.").max(100),
  })
  .strict();
export type SetupInput = z.input<typeof setupInput>;

/**
 * The setup page's one write: the token is consumed and the first owner created in ONE transaction, so a used,
 * expired or unknown token never creates anything, and a second setup (same link replayed, or a newer link) can
 * never replace the owner — createFirstOwner refuses once one exists, under an advisory lock.
 */
export async function completeSetup(db: Db, input: SetupInput) {
  const data = parseOrThrow(setupInput, input);
  return db.transaction(async (tx) => {
    if (!(await consumeSetupToken(tx, data.token))) {
      throw new AppError("forbidden", "This setup link is invalid, expired or already used.", {
        fix: "Restart Brynth to print a new setup link, or sign in if the owner account exists.",
      });
    }
    return createFirstOwner(tx, { email: data.email, password: data.password, projectName: data.projectName });
  });
}
