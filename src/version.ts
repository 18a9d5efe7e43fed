/** tongate's version, as `tongate --version`, the banner and the OpenAPI documents print it. */
export const VERSION = '0.1.0';
