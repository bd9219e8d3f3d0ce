"use client";

import * as React from "react";
import { useRouter } from "next/navigation";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import type { Action } from "@/components/channels/types";

type Props = {
  status: { configured: boolean; username: string | null; error: string | null; mode: string };
  setAction: Action<{ token: string }, { username: string }>;
  removeAction: Action<Record<string, never>>;
};

/** The project's Telegram bot: off until a token from @BotFather is set; stored encrypted, never shown again. */
export function TelegramBotCard({ status, setAction, removeAction }: Props) {
  const router = useRouter();
  const [error, setError] = React.useState<string | null>(null);
  const [pending, startTransition] = React.useTransition();

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const token = String(new FormData(form).get("token") ?? "");
    startTransition(async () => {
      const res = await setAction({ token });
      if (!res.ok) return void setError(res.error);
      setError(null);
      form.reset();
      toast.success(`Telegram bot @${res.data.username} connected`);
      router.refresh();
    });
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Telegram bot</CardTitle>
        <CardDescription>
          {status.configured ? (
            <>
              Connected as <span className="font-medium text-foreground">@{status.username}</span> ({status.mode === "webhook" ? "webhook" : "long polling"}).
            </>
          ) : (
            "Off. Create a bot with @BotFather in Telegram and paste its token here to add Telegram channels."
          )}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {status.error && (
          <p role="alert" className="text-sm text-destructive">
            Telegram: {status.error}
          </p>
        )}
        {/* noValidate: the server's words, on the field, rather than the browser's bubble (one error style everywhere). */}
        <form onSubmit={onSubmit} noValidate className="flex flex-wrap items-end gap-2">
          <FormField id="bot-token" label={status.configured ? "Replace the token" : "Bot token"} error={error} className="min-w-64 flex-1">
            <Input name="token" type="password" autoComplete="off" placeholder="123456789:AA…" />
          </FormField>
          <Button type="submit" size="sm" disabled={pending}>
            {pending ? "Checking…" : "Save token"}
          </Button>
          {status.configured && (
            <ConfirmDialog
              trigger={
                <Button type="button" variant="ghost" size="sm" className="text-destructive hover:text-destructive">
                  Turn off
                </Button>
              }
              title="Turn Telegram off?"
              description="The bot stops; Telegram channels stay but receive nothing until a token is set again."
              actionLabel="Turn off"
              onConfirm={async () => {
                const res = await removeAction({});
                if (!res.ok) throw new Error(res.error);
                toast.success("Telegram turned off");
                router.refresh();
              }}
            />
          )}
        </form>
      </CardContent>
    </Card>
  );
}
