import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { builtInTriggerPolicy, type TriggerPolicy } from "../triggers/trigger-policy.js";
import { ConfigError } from "./config-error.js";
import { importModuleFile } from "./module-file.js";

/** A trigger module as config.json records it (resume and grid workers load the same file). */
export interface TriggerModuleIdentity {
  path: string;
  sha256: string;
}

/** The absolute path and content hash of a trigger module file (refused when missing). */
export function triggerModuleIdentity(path: string): TriggerModuleIdentity {
  const abs = isAbsolute(path) ? path : resolve(path);
  if (!existsSync(abs)) throw new ConfigError(`agent.trigger_module: no such file ${abs}`);
  return { path: abs, sha256: createHash("sha256").update(readFileSync(abs)).digest("hex") };
}

type Check = TriggerPolicy["check"];
/** a fresh policy per run (a module's state never leaks between runs) */
type Factory = () => TriggerPolicy;

const loaded = new Map<string, Factory>();

const isFn = (v: unknown): v is (...a: unknown[]) => unknown => typeof v === "function";

/**
 * Loads a trigger module: it exports `createTriggerPolicy()` (a factory, called once per run, returning
 * an object with `check`), or `check(now, newObservations)` itself (named, or a default export that is
 * such a function or an object with `check`). `.js`/`.mjs` load directly, `.ts`/`.mts` through tsx.
 */
export async function loadTriggerModule(path: string): Promise<Factory> {
  const { path: abs } = triggerModuleIdentity(path);
  const done = loaded.get(abs);
  if (done) return done;
  const mod = await importModuleFile(abs, "agent.trigger_module");
  const name = `module:${abs.split(/[\\/]/).pop()}`;
  const def = mod.default as Record<string, unknown> | ((...a: unknown[]) => unknown) | undefined;
  let factory: Factory | null = null;
  if (isFn(mod.createTriggerPolicy)) {
    const create = mod.createTriggerPolicy;
    factory = () => {
      const p = create() as { check?: unknown; name?: unknown } | null;
      if (!p || !isFn(p.check))
        throw new ConfigError(`agent.trigger_module: ${abs}: createTriggerPolicy() returned no object with check()`);
      const check = p.check.bind(p) as Check;
      return { name: typeof p.name === "string" ? p.name : name, check };
    };
  } else {
    const check = isFn(mod.check) ? mod.check : isFn(def) ? def : def && isFn(def.check) ? def.check.bind(def) : null;
    if (check) factory = () => ({ name, check: check as Check });
  }
  if (!factory)
    throw new ConfigError(
      `agent.trigger_module: ${abs} exports no trigger policy (export check(now, newObservations), a default with check, or createTriggerPolicy())`,
    );
  loaded.set(abs, factory);
  return factory;
}

/** Loads the config's trigger module, if it names one (before the run directory exists, so a bad file leaves nothing). */
export async function loadConfigTriggerModule(config: {
  agent: { trigger_module?: string | undefined };
}): Promise<void> {
  if (config.agent.trigger_module !== undefined) await loadTriggerModule(config.agent.trigger_module);
}

/** A fresh trigger policy for one run of `config` (its module must have been loaded). */
export function triggerPolicyOf(config: {
  agent: { trigger_policy?: string | undefined; trigger_module?: string | undefined };
}): TriggerPolicy {
  const { trigger_policy, trigger_module } = config.agent;
  if (trigger_policy !== undefined) return builtInTriggerPolicy(trigger_policy);
  if (trigger_module === undefined) throw new Error('internal: trigger "policy" without a policy');
  const factory = loaded.get(triggerModuleIdentity(trigger_module).path);
  if (!factory) throw new Error(`internal: trigger module ${trigger_module} was not loaded`);
  return factory();
}
