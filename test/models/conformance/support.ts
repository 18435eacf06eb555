/** Starting one conformance server per provider style, and the run config / env pointing relive at it. */
import type { Brain } from "./brain.js";
import { startAnthropicServer } from "./servers/anthropic-server.js";
import type { BilledReply } from "./servers/http.js";
import { startLlamaCppServer } from "./servers/llamacpp-server.js";
import { startOllamaServer } from "./servers/ollama-server.js";
import { startOpenRouterServer } from "./servers/openrouter-server.js";
import { startVllmServer } from "./servers/vllm-server.js";

export const STYLES = ["vllm", "llamacpp", "ollama", "openrouter", "anthropic"] as const;
export type StyleName = (typeof STYLES)[number];

export const KEY = "sk-conformance-key";
/** prices for the local servers (free in prices.yaml), so billing is checked on non-zero numbers */
export const LOCAL_PRICE = { input: 0.5, cached_input: 0.05, output: 2 };

export interface Running {
  model: string;
  env: NodeJS.ProcessEnv;
  /** where the client should reach it */
  url: string;
  model_prices?: Record<string, typeof LOCAL_PRICE>;
  billed: BilledReply[];
  close(): Promise<void>;
  /** set the key the server accepts */
  setKey(k: string): void;
  /** Anthropic: start serving another model */
  serve?: (model: string) => void;
}

export interface StartOptions {
  truncateAt?: readonly number[];
  /** OpenRouter: error-in-200 at these chat indexes */
  errorIn200At?: readonly number[];
  /** llama.cpp n_ctx / Anthropic context limit */
  contextTokens?: number;
  /** the model the server serves (default: the one the run asks for) */
  servedModel?: string;
  overcharge?: number;
}

export async function startStyle(style: StyleName, brain: Brain, o: StartOptions = {}): Promise<Running> {
  const base = { brain, apiKey: KEY, ...(o.truncateAt ? { truncateAt: o.truncateAt } : {}) };
  switch (style) {
    case "vllm": {
      const s = await startVllmServer({ ...base, model: o.servedModel ?? "conf-model" });
      return {
        model: "vllm:conf-model",
        env: { VLLM_BASE_URL: s.url, VLLM_API_KEY: KEY },
        url: s.url,
        model_prices: { "vllm:conf-model": LOCAL_PRICE },
        billed: s.billed,
        close: s.close,
        setKey: (k) => {
          s.apiKey = k;
        },
      };
    }
    case "llamacpp": {
      const s = await startLlamaCppServer({
        ...base,
        model: "model.gguf",
        ...(o.contextTokens ? { nCtx: o.contextTokens } : {}),
      });
      return {
        model: "llamacpp:qwen3-8b-q4",
        env: { LLAMACPP_BASE_URL: s.url, LLAMACPP_API_KEY: KEY },
        url: s.url,
        model_prices: { "llamacpp:qwen3-8b-q4": LOCAL_PRICE },
        billed: s.billed,
        close: s.close,
        setKey: (k) => {
          s.apiKey = k;
        },
      };
    }
    case "ollama": {
      // no key: Ollama has none; its own OLLAMA_HOST (host:port, no scheme, no /v1) points relive at it
      const s = await startOllamaServer({
        brain,
        model: o.servedModel ?? "llama3.2",
        ...(o.truncateAt ? { truncateAt: o.truncateAt } : {}),
      });
      return {
        model: "ollama:llama3.2",
        env: { OLLAMA_HOST: s.url.replace(/^http:\/\//, "").replace(/\/v1$/, "") },
        url: s.url,
        model_prices: { "ollama:llama3.2": LOCAL_PRICE },
        billed: s.billed,
        close: s.close,
        setKey: (k) => {
          s.apiKey = k;
        },
      };
    }
    case "openrouter": {
      const s = await startOpenRouterServer({
        ...base,
        model: o.servedModel ?? "anthropic/claude-haiku-4.5",
        price: { input: 1.0, cached_input: 0.1, output: 5.0 },
        ...(o.errorIn200At ? { errorIn200At: o.errorIn200At } : {}),
        ...(o.overcharge ? { overcharge: o.overcharge } : {}),
      });
      return {
        model: "openrouter:anthropic/claude-haiku-4.5",
        env: { OPENROUTER_BASE_URL: s.url, OPENROUTER_API_KEY: KEY },
        url: s.url,
        billed: s.billed,
        close: s.close,
        setKey: (k) => {
          s.apiKey = k;
        },
      };
    }
    case "anthropic": {
      const s = await startAnthropicServer({
        ...base,
        models: [o.servedModel ?? "claude-haiku-4-5"],
        ...(o.contextTokens ? { contextTokens: o.contextTokens } : {}),
      });
      return {
        model: "anthropic:claude-haiku-4-5",
        env: { ANTHROPIC_BASE_URL: s.url, ANTHROPIC_API_KEY: KEY },
        url: s.url,
        billed: s.billed,
        close: s.close,
        setKey: () => {
          throw new Error("the anthropic server's key is fixed");
        },
        serve: (m) => {
          s.models.push(m);
        },
      };
    }
  }
}
