// Generated from provider.json by @cdktf/provider-generator 0.21.0 and tools/cdktf/generate.ts (npm run generate). Do not edit.
export * from './alert-subscription/index.ts';
export * from './contact/index.ts';
export * from './contact-group/index.ts';
export * from './maintenance/index.ts';
export * from './monitor/index.ts';
export * from './report-subscription/index.ts';
export * from './status-page/index.ts';
export * from './status-page-template/index.ts';
export * from './webhook/index.ts';
export * from './data-vigil-account/index.ts';
export * from './data-vigil-agent-pools/index.ts';
export * from './data-vigil-monitor/index.ts';
export * from './data-vigil-monitor-types/index.ts';
export * from './provider/index.ts';

