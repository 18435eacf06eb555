import type { PriceTable } from "../models/price-table.js";
import { type CreatedModel, createModel, modelEndpoint } from "../models/resolve-model.js";
import { ConfigError, type RunConfig } from "./config.js";

/** the harness-side model callers that may name a model of their own */
export const AUX_ROLES = ["curator", "proposer"] as const;
export type AuxRole = (typeof AUX_ROLES)[number];

/** A harness-side model other than the run's (`agent.curator.model`, `agent.learning.proposer`). */
export interface AuxModel {
  /** `provider:model` as configured */
  name: string;
  /** the price-table key its calls are billed under */
  priceKey: string;
  /** the base URL (part of the run's identity); undefined for cassettes */
  endpoint: string | undefined;
  /** the provider client (null when resolved without checking models, e.g. for rescore) */
  created: CreatedModel | null;
}

/** the model each role names in the config (absent: it uses the run's model) */
export function auxModelNames(config: RunConfig): Partial<Record<AuxRole, string>> {
  const l = config.agent.learning;
  return {
    ...(config.agent.curator?.model !== undefined ? { curator: config.agent.curator.model } : {}),
    ...(l?.method === "optimizer" && l.proposer !== undefined ? { proposer: l.proposer } : {}),
  };
}

/**
 * Opens the models the curator and the proposer name, through the one model client factory
 * (`createModel`), priced by the run's price table (an unpriced model is refused at launch). A role
 * naming the run's own model uses the run's client (no second entry here).
 */
export function resolveAuxModels(
  config: RunConfig,
  agentModel: string,
  prices: PriceTable,
  o: {
    env?: NodeJS.ProcessEnv;
    timeoutMs: number;
    checkModel: boolean;
    /** the endpoints a resumed run recorded, by role */
    endpoints?: Partial<Record<AuxRole, string | null>>;
  },
): Partial<Record<AuxRole, AuxModel>> {
  const out: Partial<Record<AuxRole, AuxModel>> = {};
  for (const [role, name] of Object.entries(auxModelNames(config)) as [AuxRole, string][]) {
    if (name === agentModel) continue;
    const path = role === "curator" ? "agent.curator.model" : "agent.learning.proposer";
    if (name.startsWith("scripted:") || name.startsWith("external:"))
      throw new ConfigError(`${path}: "${name}" is not a model (name a provider:model, see \`relive models\`)`);
    const recorded = o.endpoints?.[role];
    let created: CreatedModel | null = null;
    if (o.checkModel)
      try {
        created = createModel(name, {
          prices,
          timeoutMs: o.timeoutMs,
          ...(o.env ? { env: o.env } : {}),
          ...(typeof recorded === "string" ? { baseURL: recorded } : {}),
        });
      } catch (err) {
        throw new ConfigError(`${path}: ${(err as Error).message}`);
      }
    let endpoint: string | undefined;
    if (recorded === null) endpoint = undefined;
    else if (recorded !== undefined) endpoint = recorded;
    else if (created?.model.endpoint !== undefined) endpoint = created.model.endpoint;
    else if (!name.startsWith("cassette:"))
      try {
        endpoint = modelEndpoint(name, o.env);
      } catch {
        endpoint = undefined;
      }
    out[role] = { name, priceKey: created?.priceKey ?? name, endpoint, created };
  }
  return out;
}

/** The endpoints a run directory's config.json recorded for its harness-side models (null: none recorded). */
export function recordedAuxEndpoints(saved: {
  resolved?: { aux_models?: Partial<Record<string, { endpoint?: unknown }>> };
}): Partial<Record<AuxRole, string | null>> {
  const out: Partial<Record<AuxRole, string | null>> = {};
  for (const role of AUX_ROLES) {
    const e = saved.resolved?.aux_models?.[role];
    if (e !== undefined) out[role] = typeof e.endpoint === "string" ? e.endpoint : null;
  }
  return out;
}
