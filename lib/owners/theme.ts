import { z } from "zod";

/** The dashboard's theme: "system" follows the OS (globals.css), light and dark force one (the .light/.dark class). */
export const themeChoice = z.enum(["system", "light", "dark"]);
export type ThemeChoice = z.infer<typeof themeChoice>;

/** A browser's choice; a cookie so the server renders the right class on <html> and nothing flashes. */
export const THEME_COOKIE = "brynth_theme";

export const readTheme = (value: string | undefined): ThemeChoice => themeChoice.catch("system").parse(value);
