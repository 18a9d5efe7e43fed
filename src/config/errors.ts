/** A configuration problem: names the option so the operator knows what to fix. */
export class ConfigError extends Error {
  constructor(
    readonly option: string,
    message: string,
  ) {
    super(`${option}: ${message}`);
    this.name = 'ConfigError';
  }
}
