export declare const MALLOC_DEFAULTS: Record<string, string>;
export declare const runtimeEnv: (env?: NodeJS.ProcessEnv) => NodeJS.ProcessEnv;
