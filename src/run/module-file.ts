import { pathToFileURL } from "node:url";
import { ConfigError } from "./config-error.js";

let tsxRegistered = false;

/**
 * Imports a user's module file (task modules, trigger modules): `.js`/`.mjs` directly, `.ts`/`.mts`
 * through tsx, registered on first use. A file that fails to load is a config error naming `field`.
 */
export async function importModuleFile(abs: string, field: string): Promise<Record<string, unknown>> {
  if (/\.(c|m)?ts$/.test(abs) && !tsxRegistered) {
    const { register } = await import("tsx/esm/api");
    register();
    tsxRegistered = true;
  }
  try {
    return (await import(pathToFileURL(abs).href)) as Record<string, unknown>;
  } catch (err) {
    throw new ConfigError(`${field}: ${abs} failed to load: ${(err as Error).message}`);
  }
}
