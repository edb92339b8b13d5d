/**
 * The Prometheus HTTP API's instant query (`POST /api/v1/query`, form
 * encoded, as Prometheus v2 documents it), with a time limit on every call
 * and the token only in the Authorization header, never in a message.
 */

/** One series of an instant vector: its labels and its value. */
export interface PromSample {
  labels: Record<string, string>;
  value: number;
}

interface VectorResponse {
  status: 'success' | 'error';
  errorType?: string;
  error?: string;
  data?: {
    resultType: string;
    result: Array<{ metric: Record<string, string>; value: [number, string] }>;
  };
}

export class PrometheusClient {
  constructor(
    private readonly options: {
      baseUrl: string;
      token?: string;
      timeoutMs: number;
    },
  ) {}

  /** Where it asks, for messages (no credentials ever: the URL carries none). */
  get origin(): string {
    return new URL(this.options.baseUrl).host;
  }

  async query(promql: string, time: Date): Promise<PromSample[]> {
    const body = new URLSearchParams({
      query: promql,
      time: String(time.getTime() / 1000),
    });
    let response: Response;
    try {
      response = await fetch(`${this.options.baseUrl}/api/v1/query`, {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...(this.options.token
            ? { authorization: `Bearer ${this.options.token}` }
            : {}),
        },
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (error) {
      const name = (error as Error).name;
      throw new Error(
        name === 'TimeoutError'
          ? `Prometheus at ${this.origin} did not answer within ${this.options.timeoutMs / 1000} s`
          : `Prometheus at ${this.origin} cannot be reached (${(error as Error).message})`,
      );
    }
    let parsed: VectorResponse | undefined;
    try {
      parsed = (await response.json()) as VectorResponse;
    } catch {
      parsed = undefined;
    }
    if (!response.ok || parsed?.status !== 'success') {
      const reason = parsed?.error ?? `HTTP ${response.status}`;
      throw new Error(
        `Prometheus at ${this.origin} refused a query: ${reason}`,
      );
    }
    if (parsed.data?.resultType !== 'vector') {
      throw new Error(
        `Prometheus at ${this.origin} answered a ${parsed.data?.resultType} where a vector was asked`,
      );
    }
    return parsed.data.result.map(r => ({
      labels: r.metric,
      value: Number(r.value[1]),
    }));
  }
}
