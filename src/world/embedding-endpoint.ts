import { z } from "zod";

/** The response of an OpenAI-compatible `POST /v1/embeddings` (fields relive reads; others ignored). */
const EmbeddingsResponse = z.object({
  data: z.array(z.object({ index: z.number().int().nonnegative(), embedding: z.array(z.number()).min(1) })).min(1),
  usage: z.object({ prompt_tokens: z.number().int().nonnegative() }).optional(),
});

export interface EmbeddingEndpointOptions {
  /** e.g. `http://127.0.0.1:8080/v1` (the path `/embeddings` is appended) */
  baseURL: string;
  model: string;
  /** sent as a bearer token when given; never logged */
  apiKey?: string;
  /** texts per request (default 64) */
  batchSize?: number;
}

/** One request's vectors (in input order) and the tokens the endpoint counted for it. */
export interface EmbeddingBatch {
  vectors: Float32Array[];
  tokens: number;
}

/**
 * An OpenAI-compatible embeddings client: `embed(texts)` sends batches of `batchSize` texts one
 * request at a time and returns one vector per text in input order (the `index` of each item
 * places it: servers may return items in any order). Bad responses (HTTP errors, a missing or
 * repeated index, vectors of differing length) throw naming the endpoint and what was wrong.
 */
export class EmbeddingEndpoint {
  readonly model: string;
  readonly baseURL: string;
  private readonly apiKey: string | undefined;
  /** texts per request */
  readonly batchSize: number;

  constructor(o: EmbeddingEndpointOptions) {
    if (!/^https?:\/\//.test(o.baseURL)) throw new Error(`embedding endpoint: "${o.baseURL}" is not an http(s) URL`);
    this.baseURL = o.baseURL.replace(/\/+$/, "");
    this.model = o.model;
    this.apiKey = o.apiKey;
    this.batchSize = o.batchSize ?? 64;
    if (!Number.isInteger(this.batchSize) || this.batchSize < 1)
      throw new Error(`embedding endpoint: batchSize ${this.batchSize} must be a positive integer`);
  }

  /** Every text's vector (input order) and, per request, the tokens counted. */
  async embed(texts: readonly string[]): Promise<EmbeddingBatch[]> {
    const out: EmbeddingBatch[] = [];
    for (let off = 0; off < texts.length; off += this.batchSize)
      out.push(await this.request(texts.slice(off, off + this.batchSize)));
    return out;
  }

  private async request(input: readonly string[]): Promise<EmbeddingBatch> {
    const url = `${this.baseURL}/embeddings`;
    const res = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {}),
      },
      body: JSON.stringify({ model: this.model, input, encoding_format: "float" }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`embedding endpoint ${url}: HTTP ${res.status}: ${text.slice(0, 200)}`);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new Error(`embedding endpoint ${url}: the response is not JSON`);
    }
    const parsed = EmbeddingsResponse.safeParse(json);
    if (!parsed.success) {
      const i = parsed.error.issues[0]!;
      throw new Error(`embedding endpoint ${url}: bad response (${i.path.join(".") || "(root)"}: ${i.message})`);
    }
    const vectors: (Float32Array | undefined)[] = Array.from({ length: input.length }, () => undefined);
    let dim: number | null = null;
    for (const item of parsed.data.data) {
      if (item.index >= input.length || vectors[item.index] !== undefined)
        throw new Error(`embedding endpoint ${url}: index ${item.index} is out of range or repeated`);
      if (dim !== null && item.embedding.length !== dim)
        throw new Error(`embedding endpoint ${url}: vectors of ${dim} and ${item.embedding.length} dimensions`);
      dim = item.embedding.length;
      vectors[item.index] = Float32Array.from(item.embedding);
    }
    const missing = vectors.indexOf(undefined);
    if (missing >= 0 || parsed.data.data.length !== input.length)
      throw new Error(`embedding endpoint ${url}: no vector for input ${missing >= 0 ? missing : input.length}`);
    return { vectors: vectors as Float32Array[], tokens: parsed.data.usage?.prompt_tokens ?? 0 };
  }
}
