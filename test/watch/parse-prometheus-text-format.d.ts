declare module "parse-prometheus-text-format" {
  /** The families of a Prometheus text exposition, in prom2json's shape. */
  export default function parsePrometheusTextFormat(text: string): unknown[];
}
