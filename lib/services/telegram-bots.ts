import { restartBot, startAllBots, stopAllBots } from "@/lib/telegram/bot-runner";
import { botChanges } from "@/lib/telegram/set-bot-token";
import type { Service } from "@/lib/services/start-services";

/**
 * The projects' Telegram bots: long polling by default, a webhook when PUBLIC_URL is https. Off for projects
 * without a token; a token set or removed on any instance restarts that project's bot here too.
 */
export const telegramBots: Service = {
  name: "telegram bots",
  async start() {
    const unlisten = await botChanges.subscribe((projectId) => {
      restartBot(projectId).catch((err) => console.error("[brynth] telegram restart failed", err));
    });
    await startAllBots().catch((err) => console.error("[brynth] telegram bots failed to start", err));
    return async () => {
      unlisten();
      await stopAllBots();
    };
  },
};
