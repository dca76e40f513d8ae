/**
 * `vigil/cdktf`: CDK for Terraform constructs for the vigil provider. The provider (`VigilProvider`), one
 * construct per resource type (`Monitor`, `Contact`, `ContactGroup`, `AlertSubscription`,
 * `ReportSubscription`, `Maintenance`, `StatusPage`, `Webhook`) and per data source (`DataVigilAccount`,
 * `DataVigilAgentPools`, `DataVigilMonitor`, `DataVigilMonitorTypes`), with their config and nested types.
 * They are generated from provider.json (tools/cdktf/generate.ts); see docs/cdktf.md.
 */
export * from "./generated/index.ts";
