// The part of autocannon's API that bench/run.ts uses (the package ships no types).
declare module 'autocannon' {
  interface Options {
    url: string;
    headers?: Record<string, string>;
    connections?: number;
    duration?: number;
    method?: string;
    body?: string;
    /** Called before each request; what it returns is sent (bench/insights.ts varies the body). */
    requests?: { setupRequest?(req: { body?: string }): { body?: string } }[];
  }
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
  }
  interface Result {
    requests: Histogram;
    latency: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
  }
  export default function autocannon(options: Options): Promise<Result>;
}
