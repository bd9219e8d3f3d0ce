export declare function buildNeeded(root: string): string | null;
