/** A bad configuration value: the CLI prints its message alone and exits 2. Light on purpose (no zod). */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}
