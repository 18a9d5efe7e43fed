/** Types of build.mjs, for the tests and benches that build the console themselves. */
export declare const DEFAULT_OUT: string;
export declare function buildConsole(outDir?: string): Promise<{ name: string; bytes: number }[]>;
