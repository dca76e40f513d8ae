// Generated from provider.json by @cdktf/provider-generator 0.21.0 and tools/cdktf/generate.ts (npm run generate). Do not edit.
// https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktf from 'cdktf';

// Configuration

export interface MonitorConfig extends cdktf.TerraformMetaArguments {
  /**
  * Alias of settings.attached: write one of the two, never both.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#attached Monitor#attached}
  */
  readonly attached?: MonitorAttached;
  /**
  * 5-field cron expression (UTC) replacing interval.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#cron_schedule Monitor#cron_schedule}
  */
  readonly cronSchedule?: string;
  /**
  * false pauses: no checks, no alerts. Default: true.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#enabled Monitor#enabled}
  */
  readonly enabled?: boolean | cdktf.IResolvable;
  /**
  * Plan feature: finer grouping of identical results. Default: false.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#full_log Monitor#full_log}
  */
  readonly fullLog?: boolean | cdktf.IResolvable;
  /**
  * Seconds; one of the account's limits.intervals. Default: 180.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#interval Monitor#interval}
  */
  readonly interval?: number;
  /**
  * Where checks run; location-based types only.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#locations Monitor#locations}
  */
  readonly locations?: MonitorLocations;
  /**
  * Label in alerts, reports and status pages; absent or null follows the address.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#name Monitor#name}
  */
  readonly name?: string;
  /**
  * disable creates the monitor disabled when the plan has no room. One of: "fail", "disable". Default: "fail".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#on_overlimit Monitor#on_overlimit}
  */
  readonly onOverlimit?: string;
  /**
  * Public statistics page and uptime badge. Default: false.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#open_stat Monitor#open_stat}
  */
  readonly openStat?: boolean | cdktf.IResolvable;
  /**
  * How a failure is confirmed.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#recheck Monitor#recheck}
  */
  readonly recheck?: MonitorRecheck;
  /**
  * Settings of the monitor's type; each member names the types that take it. On update, members merge into the stored settings.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#settings Monitor#settings}
  */
  readonly settings?: MonitorSettings;
  /**
  * Uptime percent summaries measure against.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#sla_target Monitor#sla_target}
  */
  readonly slaTarget?: number;
  /**
  * Replaces the whole set. Default: [].
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#tags Monitor#tags}
  */
  readonly tags?: string[];
  /**
  * Monitor type; cannot change (422 type_immutable). One of: "http", "api", "waterfall", "cntCheck", "tran", "ping", "port", "dnsbl", "domainExp", "sslExp", "webRisk", "counter", "database", "snmp", "pageSpeed". Changing it replaces the resource.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#type Monitor#type}
  */
  readonly type: string;
  /**
  * Target; its form depends on the type.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#url Monitor#url}
  */
  readonly url?: string;
}
export interface MonitorAttachedDnsbl {
  /**
  * Whether the sub-check runs. Default: false.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#enabled Monitor#enabled}
  */
  readonly enabled: boolean | cdktf.IResolvable;
}

export function monitorAttachedDnsblToTerraform(struct?: MonitorAttachedDnsbl | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    enabled: cdktf.booleanToTerraform(struct!.enabled),
  }
}


export function monitorAttachedDnsblToHclTerraform(struct?: MonitorAttachedDnsbl | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    enabled: {
      value: cdktf.booleanToHclTerraform(struct!.enabled),
      isBlock: false,
      type: "simple",
      storageClassType: "boolean",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class MonitorAttachedDnsblOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): MonitorAttachedDnsbl | cdktf.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._enabled !== undefined) {
      hasAnyValues = true;
      internalValueResult.enabled = this._enabled;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: MonitorAttachedDnsbl | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._enabled = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._enabled = value.enabled;
    }
  }

  // enabled - computed: true, optional: false, required: true
  private _enabled?: boolean | cdktf.IResolvable; 
  public get enabled() {
    return this.getBooleanAttribute('enabled');
  }
  public set enabled(value: boolean | cdktf.IResolvable) {
    this._enabled = value;
  }
  // Temporarily expose input value. Use with caution.
  public get enabledInput() {
    return this._enabled;
  }
}
export interface MonitorAttachedDomainExp {
  /**
  * Whether the sub-check runs. Default: false.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#enabled Monitor#enabled}
  */
  readonly enabled: boolean | cdktf.IResolvable;
}

export function monitorAttachedDomainExpToTerraform(struct?: MonitorAttachedDomainExp | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    enabled: cdktf.booleanToTerraform(struct!.enabled),
  }
}


export function monitorAttachedDomainExpToHclTerraform(struct?: MonitorAttachedDomainExp | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    enabled: {
      value: cdktf.booleanToHclTerraform(struct!.enabled),
      isBlock: false,
      type: "simple",
      storageClassType: "boolean",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class MonitorAttachedDomainExpOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): MonitorAttachedDomainExp | cdktf.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._enabled !== undefined) {
      hasAnyValues = true;
      internalValueResult.enabled = this._enabled;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: MonitorAttachedDomainExp | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._enabled = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._enabled = value.enabled;
    }
  }

  // enabled - computed: true, optional: false, required: true
  private _enabled?: boolean | cdktf.IResolvable; 
  public get enabled() {
    return this.getBooleanAttribute('enabled');
  }
  public set enabled(value: boolean | cdktf.IResolvable) {
    this._enabled = value;
  }
  // Temporarily expose input value. Use with caution.
  public get enabledInput() {
    return this._enabled;
  }
}
export interface MonitorAttachedSslExp {
  /**
  * Whether the sub-check runs. Default: false.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#enabled Monitor#enabled}
  */
  readonly enabled: boolean | cdktf.IResolvable;
}

export function monitorAttachedSslExpToTerraform(struct?: MonitorAttachedSslExp | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    enabled: cdktf.booleanToTerraform(struct!.enabled),
  }
}


export function monitorAttachedSslExpToHclTerraform(struct?: MonitorAttachedSslExp | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    enabled: {
      value: cdktf.booleanToHclTerraform(struct!.enabled),
      isBlock: false,
      type: "simple",
      storageClassType: "boolean",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class MonitorAttachedSslExpOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): MonitorAttachedSslExp | cdktf.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._enabled !== undefined) {
      hasAnyValues = true;
      internalValueResult.enabled = this._enabled;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: MonitorAttachedSslExp | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._enabled = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._enabled = value.enabled;
    }
  }

  // enabled - computed: true, optional: false, required: true
  private _enabled?: boolean | cdktf.IResolvable; 
  public get enabled() {
    return this.getBooleanAttribute('enabled');
  }
  public set enabled(value: boolean | cdktf.IResolvable) {
    this._enabled = value;
  }
  // Temporarily expose input value. Use with caution.
  public get enabledInput() {
    return this._enabled;
  }
}
export interface MonitorAttachedWebRisk {
  /**
  * Whether the sub-check runs. Default: false.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#enabled Monitor#enabled}
  */
  readonly enabled: boolean | cdktf.IResolvable;
}

export function monitorAttachedWebRiskToTerraform(struct?: MonitorAttachedWebRisk | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    enabled: cdktf.booleanToTerraform(struct!.enabled),
  }
}


export function monitorAttachedWebRiskToHclTerraform(struct?: MonitorAttachedWebRisk | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    enabled: {
      value: cdktf.booleanToHclTerraform(struct!.enabled),
      isBlock: false,
      type: "simple",
      storageClassType: "boolean",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class MonitorAttachedWebRiskOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): MonitorAttachedWebRisk | cdktf.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._enabled !== undefined) {
      hasAnyValues = true;
      internalValueResult.enabled = this._enabled;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: MonitorAttachedWebRisk | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._enabled = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._enabled = value.enabled;
    }
  }

  // enabled - computed: true, optional: false, required: true
  private _enabled?: boolean | cdktf.IResolvable; 
  public get enabled() {
    return this.getBooleanAttribute('enabled');
  }
  public set enabled(value: boolean | cdktf.IResolvable) {
    this._enabled = value;
  }
  // Temporarily expose input value. Use with caution.
  public get enabledInput() {
    return this._enabled;
  }
}
export interface MonitorAttached {
  /**
  * Dnsbl.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#dnsbl Monitor#dnsbl}
  */
  readonly dnsbl?: MonitorAttachedDnsbl;
  /**
  * Domain exp.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#domain_exp Monitor#domain_exp}
  */
  readonly domainExp?: MonitorAttachedDomainExp;
  /**
  * Ssl exp.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#ssl_exp Monitor#ssl_exp}
  */
  readonly sslExp?: MonitorAttachedSslExp;
  /**
  * Web risk.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#web_risk Monitor#web_risk}
  */
  readonly webRisk?: MonitorAttachedWebRisk;
}

export function monitorAttachedToTerraform(struct?: MonitorAttached | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    dnsbl: monitorAttachedDnsblToTerraform(struct!.dnsbl),
    domain_exp: monitorAttachedDomainExpToTerraform(struct!.domainExp),
    ssl_exp: monitorAttachedSslExpToTerraform(struct!.sslExp),
    web_risk: monitorAttachedWebRiskToTerraform(struct!.webRisk),
  }
}


export function monitorAttachedToHclTerraform(struct?: MonitorAttached | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    dnsbl: {
      value: monitorAttachedDnsblToHclTerraform(struct!.dnsbl),
      isBlock: false,
      type: "list",
      storageClassType: "MonitorAttachedDnsbl",
    },
    domain_exp: {
      value: monitorAttachedDomainExpToHclTerraform(struct!.domainExp),
      isBlock: false,
      type: "list",
      storageClassType: "MonitorAttachedDomainExp",
    },
    ssl_exp: {
      value: monitorAttachedSslExpToHclTerraform(struct!.sslExp),
      isBlock: false,
      type: "list",
      storageClassType: "MonitorAttachedSslExp",
    },
    web_risk: {
      value: monitorAttachedWebRiskToHclTerraform(struct!.webRisk),
      isBlock: false,
      type: "list",
      storageClassType: "MonitorAttachedWebRisk",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class MonitorAttachedOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): MonitorAttached | cdktf.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._dnsbl?.internalValue !== undefined) {
      hasAnyValues = true;
      internalValueResult.dnsbl = this._dnsbl?.internalValue;
    }
    if (this._domainExp?.internalValue !== undefined) {
      hasAnyValues = true;
      internalValueResult.domainExp = this._domainExp?.internalValue;
    }
    if (this._sslExp?.internalValue !== undefined) {
      hasAnyValues = true;
      internalValueResult.sslExp = this._sslExp?.internalValue;
    }
    if (this._webRisk?.internalValue !== undefined) {
      hasAnyValues = true;
      internalValueResult.webRisk = this._webRisk?.internalValue;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: MonitorAttached | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._dnsbl.internalValue = undefined;
      this._domainExp.internalValue = undefined;
      this._sslExp.internalValue = undefined;
      this._webRisk.internalValue = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._dnsbl.internalValue = value.dnsbl;
      this._domainExp.internalValue = value.domainExp;
      this._sslExp.internalValue = value.sslExp;
      this._webRisk.internalValue = value.webRisk;
    }
  }

  // dnsbl - computed: true, optional: true, required: false
  private _dnsbl = new MonitorAttachedDnsblOutputReference(this, "dnsbl");
  public get dnsbl() {
    return this._dnsbl;
  }
  public putDnsbl(value: MonitorAttachedDnsbl) {
    this._dnsbl.internalValue = value;
  }
  public resetDnsbl() {
    this._dnsbl.internalValue = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get dnsblInput() {
    return this._dnsbl.internalValue;
  }

  // domain_exp - computed: true, optional: true, required: false
  private _domainExp = new MonitorAttachedDomainExpOutputReference(this, "domain_exp");
  public get domainExp() {
    return this._domainExp;
  }
  public putDomainExp(value: MonitorAttachedDomainExp) {
    this._domainExp.internalValue = value;
  }
  public resetDomainExp() {
    this._domainExp.internalValue = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get domainExpInput() {
    return this._domainExp.internalValue;
  }

  // ssl_exp - computed: true, optional: true, required: false
  private _sslExp = new MonitorAttachedSslExpOutputReference(this, "ssl_exp");
  public get sslExp() {
    return this._sslExp;
  }
  public putSslExp(value: MonitorAttachedSslExp) {
    this._sslExp.internalValue = value;
  }
  public resetSslExp() {
    this._sslExp.internalValue = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get sslExpInput() {
    return this._sslExp.internalValue;
  }

  // web_risk - computed: true, optional: true, required: false
  private _webRisk = new MonitorAttachedWebRiskOutputReference(this, "web_risk");
  public get webRisk() {
    return this._webRisk;
  }
  public putWebRisk(value: MonitorAttachedWebRisk) {
    this._webRisk.internalValue = value;
  }
  public resetWebRisk() {
    this._webRisk.internalValue = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get webRiskInput() {
    return this._webRisk.internalValue;
  }
}
export interface MonitorLocations {
  /**
  * Location ids kept out even inside a chosen pool. Default: [].
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#excluded_agents Monitor#excluded_agents}
  */
  readonly excludedAgents?: string[];
  /**
  * When no chosen location is available: geo, world, or starve (wait and retry). One of: "geo", "world", "starve". Default: "starve".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#fallback Monitor#fallback}
  */
  readonly fallback?: string;
  /**
  * Pool ids from `GET /agent/pool`, matched case-insensitively; `allworld` = everywhere.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#pools Monitor#pools}
  */
  readonly pools?: string[];
}

export function monitorLocationsToTerraform(struct?: MonitorLocations | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    excluded_agents: cdktf.listMapper(cdktf.stringToTerraform, false)(struct!.excludedAgents),
    fallback: cdktf.stringToTerraform(struct!.fallback),
    pools: cdktf.listMapper(cdktf.stringToTerraform, false)(struct!.pools),
  }
}


export function monitorLocationsToHclTerraform(struct?: MonitorLocations | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    excluded_agents: {
      value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(struct!.excludedAgents),
      isBlock: false,
      type: "set",
      storageClassType: "stringList",
    },
    fallback: {
      value: cdktf.stringToHclTerraform(struct!.fallback),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    pools: {
      value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(struct!.pools),
      isBlock: false,
      type: "set",
      storageClassType: "stringList",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class MonitorLocationsOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): MonitorLocations | cdktf.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._excludedAgents !== undefined) {
      hasAnyValues = true;
      internalValueResult.excludedAgents = this._excludedAgents;
    }
    if (this._fallback !== undefined) {
      hasAnyValues = true;
      internalValueResult.fallback = this._fallback;
    }
    if (this._pools !== undefined) {
      hasAnyValues = true;
      internalValueResult.pools = this._pools;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: MonitorLocations | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._excludedAgents = undefined;
      this._fallback = undefined;
      this._pools = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._excludedAgents = value.excludedAgents;
      this._fallback = value.fallback;
      this._pools = value.pools;
    }
  }

  // excluded_agents - computed: true, optional: true, required: false
  private _excludedAgents?: string[]; 
  public get excludedAgents() {
    return cdktf.Fn.tolist(this.getListAttribute('excluded_agents'));
  }
  public set excludedAgents(value: string[]) {
    this._excludedAgents = value;
  }
  public resetExcludedAgents() {
    this._excludedAgents = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get excludedAgentsInput() {
    return this._excludedAgents;
  }

  // fallback - computed: true, optional: true, required: false
  private _fallback?: string; 
  public get fallback() {
    return this.getStringAttribute('fallback');
  }
  public set fallback(value: string) {
    this._fallback = value;
  }
  public resetFallback() {
    this._fallback = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get fallbackInput() {
    return this._fallback;
  }

  // pools - computed: true, optional: true, required: false
  private _pools?: string[]; 
  public get pools() {
    return cdktf.Fn.tolist(this.getListAttribute('pools'));
  }
  public set pools(value: string[]) {
    this._pools = value;
  }
  public resetPools() {
    this._pools = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get poolsInput() {
    return this._pools;
  }
}
export interface MonitorRecheck {
  /**
  * With minNumDown: how many locations must fail; null clears it.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#min_num_down Monitor#min_num_down}
  */
  readonly minNumDown?: number;
  /**
  * How a failure is confirmed; empty = majority vote. One of: "", "noRecheck", "fullAgreement", "downFullAgreement", "minNumDown". Default: "".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#strategy Monitor#strategy}
  */
  readonly strategy?: string;
}

export function monitorRecheckToTerraform(struct?: MonitorRecheck | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    min_num_down: cdktf.numberToTerraform(struct!.minNumDown),
    strategy: cdktf.stringToTerraform(struct!.strategy),
  }
}


export function monitorRecheckToHclTerraform(struct?: MonitorRecheck | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    min_num_down: {
      value: cdktf.numberToHclTerraform(struct!.minNumDown),
      isBlock: false,
      type: "simple",
      storageClassType: "number",
    },
    strategy: {
      value: cdktf.stringToHclTerraform(struct!.strategy),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class MonitorRecheckOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): MonitorRecheck | cdktf.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._minNumDown !== undefined) {
      hasAnyValues = true;
      internalValueResult.minNumDown = this._minNumDown;
    }
    if (this._strategy !== undefined) {
      hasAnyValues = true;
      internalValueResult.strategy = this._strategy;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: MonitorRecheck | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._minNumDown = undefined;
      this._strategy = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._minNumDown = value.minNumDown;
      this._strategy = value.strategy;
    }
  }

  // min_num_down - computed: true, optional: true, required: false
  private _minNumDown?: number; 
  public get minNumDown() {
    return this.getNumberAttribute('min_num_down');
  }
  public set minNumDown(value: number) {
    this._minNumDown = value;
  }
  public resetMinNumDown() {
    this._minNumDown = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get minNumDownInput() {
    return this._minNumDown;
  }

  // strategy - computed: true, optional: true, required: false
  private _strategy?: string; 
  public get strategy() {
    return this.getStringAttribute('strategy');
  }
  public set strategy(value: string) {
    this._strategy = value;
  }
  public resetStrategy() {
    this._strategy = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get strategyInput() {
    return this._strategy;
  }
}
export interface MonitorSettingsAsserts {
  /**
  * Comparison. One of: "eq", "neq", "lt", "le", "gt", "ge", "contains", "notContains", "matches", "exists".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#comparison Monitor#comparison}
  */
  readonly comparison: string;
  /**
  * Property.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#property Monitor#property}
  */
  readonly property?: string;
  /**
  * Source. One of: "status", "body", "header", "json", "responseTime".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#source Monitor#source}
  */
  readonly source: string;
  /**
  * Target.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#target Monitor#target}
  */
  readonly target?: string;
}

export function monitorSettingsAssertsToTerraform(struct?: MonitorSettingsAsserts | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    comparison: cdktf.stringToTerraform(struct!.comparison),
    property: cdktf.stringToTerraform(struct!.property),
    source: cdktf.stringToTerraform(struct!.source),
    target: cdktf.stringToTerraform(struct!.target),
  }
}


export function monitorSettingsAssertsToHclTerraform(struct?: MonitorSettingsAsserts | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    comparison: {
      value: cdktf.stringToHclTerraform(struct!.comparison),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    property: {
      value: cdktf.stringToHclTerraform(struct!.property),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    source: {
      value: cdktf.stringToHclTerraform(struct!.source),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    target: {
      value: cdktf.stringToHclTerraform(struct!.target),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class MonitorSettingsAssertsOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  * @param complexObjectIndex the index of this item in the list
  * @param complexObjectIsFromSet whether the list is wrapping a set (will add tolist() to be able to access an item via an index)
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string, complexObjectIndex: number, complexObjectIsFromSet: boolean) {
    super(terraformResource, terraformAttribute, complexObjectIsFromSet, complexObjectIndex);
  }

  public get internalValue(): MonitorSettingsAsserts | cdktf.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._comparison !== undefined) {
      hasAnyValues = true;
      internalValueResult.comparison = this._comparison;
    }
    if (this._property !== undefined) {
      hasAnyValues = true;
      internalValueResult.property = this._property;
    }
    if (this._source !== undefined) {
      hasAnyValues = true;
      internalValueResult.source = this._source;
    }
    if (this._target !== undefined) {
      hasAnyValues = true;
      internalValueResult.target = this._target;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: MonitorSettingsAsserts | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._comparison = undefined;
      this._property = undefined;
      this._source = undefined;
      this._target = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._comparison = value.comparison;
      this._property = value.property;
      this._source = value.source;
      this._target = value.target;
    }
  }

  // comparison - computed: true, optional: false, required: true
  private _comparison?: string; 
  public get comparison() {
    return this.getStringAttribute('comparison');
  }
  public set comparison(value: string) {
    this._comparison = value;
  }
  // Temporarily expose input value. Use with caution.
  public get comparisonInput() {
    return this._comparison;
  }

  // property - computed: true, optional: true, required: false
  private _property?: string; 
  public get property() {
    return this.getStringAttribute('property');
  }
  public set property(value: string) {
    this._property = value;
  }
  public resetProperty() {
    this._property = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get propertyInput() {
    return this._property;
  }

  // source - computed: true, optional: false, required: true
  private _source?: string; 
  public get source() {
    return this.getStringAttribute('source');
  }
  public set source(value: string) {
    this._source = value;
  }
  // Temporarily expose input value. Use with caution.
  public get sourceInput() {
    return this._source;
  }

  // target - computed: true, optional: true, required: false
  private _target?: string; 
  public get target() {
    return this.getStringAttribute('target');
  }
  public set target(value: string) {
    this._target = value;
  }
  public resetTarget() {
    this._target = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get targetInput() {
    return this._target;
  }
}

export class MonitorSettingsAssertsList extends cdktf.ComplexList {
  public internalValue? : MonitorSettingsAsserts[] | cdktf.IResolvable

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  * @param wrapsSet whether the list is wrapping a set (will add tolist() to be able to access an item via an index)
  */
  constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string, wrapsSet: boolean) {
    super(terraformResource, terraformAttribute, wrapsSet)
  }

  /**
  * @param index the index of the item to return
  */
  public get(index: number): MonitorSettingsAssertsOutputReference {
    return new MonitorSettingsAssertsOutputReference(this.terraformResource, this.terraformAttribute, index, this.wrapsSet);
  }
}
export interface MonitorSettingsAttachedDnsbl {
  /**
  * Whether the sub-check runs. Default: false.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#enabled Monitor#enabled}
  */
  readonly enabled: boolean | cdktf.IResolvable;
}

export function monitorSettingsAttachedDnsblToTerraform(struct?: MonitorSettingsAttachedDnsbl | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    enabled: cdktf.booleanToTerraform(struct!.enabled),
  }
}


export function monitorSettingsAttachedDnsblToHclTerraform(struct?: MonitorSettingsAttachedDnsbl | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    enabled: {
      value: cdktf.booleanToHclTerraform(struct!.enabled),
      isBlock: false,
      type: "simple",
      storageClassType: "boolean",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class MonitorSettingsAttachedDnsblOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): MonitorSettingsAttachedDnsbl | cdktf.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._enabled !== undefined) {
      hasAnyValues = true;
      internalValueResult.enabled = this._enabled;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: MonitorSettingsAttachedDnsbl | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._enabled = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._enabled = value.enabled;
    }
  }

  // enabled - computed: true, optional: false, required: true
  private _enabled?: boolean | cdktf.IResolvable; 
  public get enabled() {
    return this.getBooleanAttribute('enabled');
  }
  public set enabled(value: boolean | cdktf.IResolvable) {
    this._enabled = value;
  }
  // Temporarily expose input value. Use with caution.
  public get enabledInput() {
    return this._enabled;
  }
}
export interface MonitorSettingsAttachedDomainExp {
  /**
  * Whether the sub-check runs. Default: false.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#enabled Monitor#enabled}
  */
  readonly enabled: boolean | cdktf.IResolvable;
}

export function monitorSettingsAttachedDomainExpToTerraform(struct?: MonitorSettingsAttachedDomainExp | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    enabled: cdktf.booleanToTerraform(struct!.enabled),
  }
}


export function monitorSettingsAttachedDomainExpToHclTerraform(struct?: MonitorSettingsAttachedDomainExp | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    enabled: {
      value: cdktf.booleanToHclTerraform(struct!.enabled),
      isBlock: false,
      type: "simple",
      storageClassType: "boolean",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class MonitorSettingsAttachedDomainExpOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): MonitorSettingsAttachedDomainExp | cdktf.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._enabled !== undefined) {
      hasAnyValues = true;
      internalValueResult.enabled = this._enabled;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: MonitorSettingsAttachedDomainExp | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._enabled = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._enabled = value.enabled;
    }
  }

  // enabled - computed: true, optional: false, required: true
  private _enabled?: boolean | cdktf.IResolvable; 
  public get enabled() {
    return this.getBooleanAttribute('enabled');
  }
  public set enabled(value: boolean | cdktf.IResolvable) {
    this._enabled = value;
  }
  // Temporarily expose input value. Use with caution.
  public get enabledInput() {
    return this._enabled;
  }
}
export interface MonitorSettingsAttachedSslExp {
  /**
  * Whether the sub-check runs. Default: false.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#enabled Monitor#enabled}
  */
  readonly enabled: boolean | cdktf.IResolvable;
}

export function monitorSettingsAttachedSslExpToTerraform(struct?: MonitorSettingsAttachedSslExp | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    enabled: cdktf.booleanToTerraform(struct!.enabled),
  }
}


export function monitorSettingsAttachedSslExpToHclTerraform(struct?: MonitorSettingsAttachedSslExp | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    enabled: {
      value: cdktf.booleanToHclTerraform(struct!.enabled),
      isBlock: false,
      type: "simple",
      storageClassType: "boolean",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class MonitorSettingsAttachedSslExpOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): MonitorSettingsAttachedSslExp | cdktf.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._enabled !== undefined) {
      hasAnyValues = true;
      internalValueResult.enabled = this._enabled;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: MonitorSettingsAttachedSslExp | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._enabled = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._enabled = value.enabled;
    }
  }

  // enabled - computed: true, optional: false, required: true
  private _enabled?: boolean | cdktf.IResolvable; 
  public get enabled() {
    return this.getBooleanAttribute('enabled');
  }
  public set enabled(value: boolean | cdktf.IResolvable) {
    this._enabled = value;
  }
  // Temporarily expose input value. Use with caution.
  public get enabledInput() {
    return this._enabled;
  }
}
export interface MonitorSettingsAttachedWebRisk {
  /**
  * Whether the sub-check runs. Default: false.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#enabled Monitor#enabled}
  */
  readonly enabled: boolean | cdktf.IResolvable;
}

export function monitorSettingsAttachedWebRiskToTerraform(struct?: MonitorSettingsAttachedWebRisk | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    enabled: cdktf.booleanToTerraform(struct!.enabled),
  }
}


export function monitorSettingsAttachedWebRiskToHclTerraform(struct?: MonitorSettingsAttachedWebRisk | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    enabled: {
      value: cdktf.booleanToHclTerraform(struct!.enabled),
      isBlock: false,
      type: "simple",
      storageClassType: "boolean",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class MonitorSettingsAttachedWebRiskOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): MonitorSettingsAttachedWebRisk | cdktf.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._enabled !== undefined) {
      hasAnyValues = true;
      internalValueResult.enabled = this._enabled;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: MonitorSettingsAttachedWebRisk | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._enabled = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._enabled = value.enabled;
    }
  }

  // enabled - computed: true, optional: false, required: true
  private _enabled?: boolean | cdktf.IResolvable; 
  public get enabled() {
    return this.getBooleanAttribute('enabled');
  }
  public set enabled(value: boolean | cdktf.IResolvable) {
    this._enabled = value;
  }
  // Temporarily expose input value. Use with caution.
  public get enabledInput() {
    return this._enabled;
  }
}
export interface MonitorSettingsAttached {
  /**
  * Dnsbl.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#dnsbl Monitor#dnsbl}
  */
  readonly dnsbl?: MonitorSettingsAttachedDnsbl;
  /**
  * Domain exp.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#domain_exp Monitor#domain_exp}
  */
  readonly domainExp?: MonitorSettingsAttachedDomainExp;
  /**
  * Ssl exp.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#ssl_exp Monitor#ssl_exp}
  */
  readonly sslExp?: MonitorSettingsAttachedSslExp;
  /**
  * Web risk.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#web_risk Monitor#web_risk}
  */
  readonly webRisk?: MonitorSettingsAttachedWebRisk;
}

export function monitorSettingsAttachedToTerraform(struct?: MonitorSettingsAttached | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    dnsbl: monitorSettingsAttachedDnsblToTerraform(struct!.dnsbl),
    domain_exp: monitorSettingsAttachedDomainExpToTerraform(struct!.domainExp),
    ssl_exp: monitorSettingsAttachedSslExpToTerraform(struct!.sslExp),
    web_risk: monitorSettingsAttachedWebRiskToTerraform(struct!.webRisk),
  }
}


export function monitorSettingsAttachedToHclTerraform(struct?: MonitorSettingsAttached | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    dnsbl: {
      value: monitorSettingsAttachedDnsblToHclTerraform(struct!.dnsbl),
      isBlock: false,
      type: "list",
      storageClassType: "MonitorSettingsAttachedDnsbl",
    },
    domain_exp: {
      value: monitorSettingsAttachedDomainExpToHclTerraform(struct!.domainExp),
      isBlock: false,
      type: "list",
      storageClassType: "MonitorSettingsAttachedDomainExp",
    },
    ssl_exp: {
      value: monitorSettingsAttachedSslExpToHclTerraform(struct!.sslExp),
      isBlock: false,
      type: "list",
      storageClassType: "MonitorSettingsAttachedSslExp",
    },
    web_risk: {
      value: monitorSettingsAttachedWebRiskToHclTerraform(struct!.webRisk),
      isBlock: false,
      type: "list",
      storageClassType: "MonitorSettingsAttachedWebRisk",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class MonitorSettingsAttachedOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): MonitorSettingsAttached | cdktf.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._dnsbl?.internalValue !== undefined) {
      hasAnyValues = true;
      internalValueResult.dnsbl = this._dnsbl?.internalValue;
    }
    if (this._domainExp?.internalValue !== undefined) {
      hasAnyValues = true;
      internalValueResult.domainExp = this._domainExp?.internalValue;
    }
    if (this._sslExp?.internalValue !== undefined) {
      hasAnyValues = true;
      internalValueResult.sslExp = this._sslExp?.internalValue;
    }
    if (this._webRisk?.internalValue !== undefined) {
      hasAnyValues = true;
      internalValueResult.webRisk = this._webRisk?.internalValue;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: MonitorSettingsAttached | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._dnsbl.internalValue = undefined;
      this._domainExp.internalValue = undefined;
      this._sslExp.internalValue = undefined;
      this._webRisk.internalValue = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._dnsbl.internalValue = value.dnsbl;
      this._domainExp.internalValue = value.domainExp;
      this._sslExp.internalValue = value.sslExp;
      this._webRisk.internalValue = value.webRisk;
    }
  }

  // dnsbl - computed: true, optional: true, required: false
  private _dnsbl = new MonitorSettingsAttachedDnsblOutputReference(this, "dnsbl");
  public get dnsbl() {
    return this._dnsbl;
  }
  public putDnsbl(value: MonitorSettingsAttachedDnsbl) {
    this._dnsbl.internalValue = value;
  }
  public resetDnsbl() {
    this._dnsbl.internalValue = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get dnsblInput() {
    return this._dnsbl.internalValue;
  }

  // domain_exp - computed: true, optional: true, required: false
  private _domainExp = new MonitorSettingsAttachedDomainExpOutputReference(this, "domain_exp");
  public get domainExp() {
    return this._domainExp;
  }
  public putDomainExp(value: MonitorSettingsAttachedDomainExp) {
    this._domainExp.internalValue = value;
  }
  public resetDomainExp() {
    this._domainExp.internalValue = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get domainExpInput() {
    return this._domainExp.internalValue;
  }

  // ssl_exp - computed: true, optional: true, required: false
  private _sslExp = new MonitorSettingsAttachedSslExpOutputReference(this, "ssl_exp");
  public get sslExp() {
    return this._sslExp;
  }
  public putSslExp(value: MonitorSettingsAttachedSslExp) {
    this._sslExp.internalValue = value;
  }
  public resetSslExp() {
    this._sslExp.internalValue = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get sslExpInput() {
    return this._sslExp.internalValue;
  }

  // web_risk - computed: true, optional: true, required: false
  private _webRisk = new MonitorSettingsAttachedWebRiskOutputReference(this, "web_risk");
  public get webRisk() {
    return this._webRisk;
  }
  public putWebRisk(value: MonitorSettingsAttachedWebRisk) {
    this._webRisk.internalValue = value;
  }
  public resetWebRisk() {
    this._webRisk.internalValue = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get webRiskInput() {
    return this._webRisk.internalValue;
  }
}
export interface MonitorSettingsExpectation {
  /**
  * Args. Default: [].
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#args Monitor#args}
  */
  readonly args?: string[];
  /**
  * Change. One of: 0, 1, 2. Default: 0.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#change Monitor#change}
  */
  readonly change?: number;
  /**
  * Cpt. One of: "", "ms", "s", "m", "h". Default: "".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#cpt Monitor#cpt}
  */
  readonly cpt?: string;
  /**
  * Func. One of: "eq", "neq", "in", "out", "ls", "le", "gt", "ge", "inr", "outr", "null", "no".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#func Monitor#func}
  */
  readonly func: string;
}

export function monitorSettingsExpectationToTerraform(struct?: MonitorSettingsExpectation | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    args: cdktf.listMapper(cdktf.stringToTerraform, false)(struct!.args),
    change: cdktf.numberToTerraform(struct!.change),
    cpt: cdktf.stringToTerraform(struct!.cpt),
    func: cdktf.stringToTerraform(struct!.func),
  }
}


export function monitorSettingsExpectationToHclTerraform(struct?: MonitorSettingsExpectation | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    args: {
      value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(struct!.args),
      isBlock: false,
      type: "list",
      storageClassType: "stringList",
    },
    change: {
      value: cdktf.numberToHclTerraform(struct!.change),
      isBlock: false,
      type: "simple",
      storageClassType: "number",
    },
    cpt: {
      value: cdktf.stringToHclTerraform(struct!.cpt),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    func: {
      value: cdktf.stringToHclTerraform(struct!.func),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class MonitorSettingsExpectationOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): MonitorSettingsExpectation | cdktf.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._args !== undefined) {
      hasAnyValues = true;
      internalValueResult.args = this._args;
    }
    if (this._change !== undefined) {
      hasAnyValues = true;
      internalValueResult.change = this._change;
    }
    if (this._cpt !== undefined) {
      hasAnyValues = true;
      internalValueResult.cpt = this._cpt;
    }
    if (this._func !== undefined) {
      hasAnyValues = true;
      internalValueResult.func = this._func;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: MonitorSettingsExpectation | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._args = undefined;
      this._change = undefined;
      this._cpt = undefined;
      this._func = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._args = value.args;
      this._change = value.change;
      this._cpt = value.cpt;
      this._func = value.func;
    }
  }

  // args - computed: true, optional: true, required: false
  private _args?: string[]; 
  public get args() {
    return this.getListAttribute('args');
  }
  public set args(value: string[]) {
    this._args = value;
  }
  public resetArgs() {
    this._args = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get argsInput() {
    return this._args;
  }

  // change - computed: true, optional: true, required: false
  private _change?: number; 
  public get change() {
    return this.getNumberAttribute('change');
  }
  public set change(value: number) {
    this._change = value;
  }
  public resetChange() {
    this._change = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get changeInput() {
    return this._change;
  }

  // cpt - computed: true, optional: true, required: false
  private _cpt?: string; 
  public get cpt() {
    return this.getStringAttribute('cpt');
  }
  public set cpt(value: string) {
    this._cpt = value;
  }
  public resetCpt() {
    this._cpt = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get cptInput() {
    return this._cpt;
  }

  // func - computed: true, optional: false, required: true
  private _func?: string; 
  public get func() {
    return this.getStringAttribute('func');
  }
  public set func(value: string) {
    this._func = value;
  }
  // Temporarily expose input value. Use with caution.
  public get funcInput() {
    return this._func;
  }
}
export interface MonitorSettingsHeaders {
  /**
  * Name.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#name Monitor#name}
  */
  readonly name: string;
  /**
  * Value.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#value Monitor#value}
  */
  readonly value: string;
}

export function monitorSettingsHeadersToTerraform(struct?: MonitorSettingsHeaders | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    name: cdktf.stringToTerraform(struct!.name),
    value: cdktf.stringToTerraform(struct!.value),
  }
}


export function monitorSettingsHeadersToHclTerraform(struct?: MonitorSettingsHeaders | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    name: {
      value: cdktf.stringToHclTerraform(struct!.name),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    value: {
      value: cdktf.stringToHclTerraform(struct!.value),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class MonitorSettingsHeadersOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  * @param complexObjectIndex the index of this item in the list
  * @param complexObjectIsFromSet whether the list is wrapping a set (will add tolist() to be able to access an item via an index)
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string, complexObjectIndex: number, complexObjectIsFromSet: boolean) {
    super(terraformResource, terraformAttribute, complexObjectIsFromSet, complexObjectIndex);
  }

  public get internalValue(): MonitorSettingsHeaders | cdktf.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._name !== undefined) {
      hasAnyValues = true;
      internalValueResult.name = this._name;
    }
    if (this._value !== undefined) {
      hasAnyValues = true;
      internalValueResult.value = this._value;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: MonitorSettingsHeaders | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._name = undefined;
      this._value = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._name = value.name;
      this._value = value.value;
    }
  }

  // name - computed: true, optional: false, required: true
  private _name?: string; 
  public get name() {
    return this.getStringAttribute('name');
  }
  public set name(value: string) {
    this._name = value;
  }
  // Temporarily expose input value. Use with caution.
  public get nameInput() {
    return this._name;
  }

  // value - computed: true, optional: false, required: true
  private _value?: string; 
  public get value() {
    return this.getStringAttribute('value');
  }
  public set value(value: string) {
    this._value = value;
  }
  // Temporarily expose input value. Use with caution.
  public get valueInput() {
    return this._value;
  }
}

export class MonitorSettingsHeadersList extends cdktf.ComplexList {
  public internalValue? : MonitorSettingsHeaders[] | cdktf.IResolvable

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  * @param wrapsSet whether the list is wrapping a set (will add tolist() to be able to access an item via an index)
  */
  constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string, wrapsSet: boolean) {
    super(terraformResource, terraformAttribute, wrapsSet)
  }

  /**
  * @param index the index of the item to return
  */
  public get(index: number): MonitorSettingsHeadersOutputReference {
    return new MonitorSettingsHeadersOutputReference(this.terraformResource, this.terraformAttribute, index, this.wrapsSet);
  }
}
export interface MonitorSettingsSteps {
  /**
  * Action. One of: "navigate", "click", "type", "select", "wait", "checkContent".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#action Monitor#action}
  */
  readonly action: string;
  /**
  * Keywords.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#keywords Monitor#keywords}
  */
  readonly keywords?: string[];
  /**
  * Selector.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#selector Monitor#selector}
  */
  readonly selector?: string;
  /**
  * Url.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#url Monitor#url}
  */
  readonly url?: string;
  /**
  * Value.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#value Monitor#value}
  */
  readonly value?: string;
  /**
  * Wait ms.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#wait_ms Monitor#wait_ms}
  */
  readonly waitMs?: number;
}

export function monitorSettingsStepsToTerraform(struct?: MonitorSettingsSteps | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    action: cdktf.stringToTerraform(struct!.action),
    keywords: cdktf.listMapper(cdktf.stringToTerraform, false)(struct!.keywords),
    selector: cdktf.stringToTerraform(struct!.selector),
    url: cdktf.stringToTerraform(struct!.url),
    value: cdktf.stringToTerraform(struct!.value),
    wait_ms: cdktf.numberToTerraform(struct!.waitMs),
  }
}


export function monitorSettingsStepsToHclTerraform(struct?: MonitorSettingsSteps | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    action: {
      value: cdktf.stringToHclTerraform(struct!.action),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    keywords: {
      value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(struct!.keywords),
      isBlock: false,
      type: "list",
      storageClassType: "stringList",
    },
    selector: {
      value: cdktf.stringToHclTerraform(struct!.selector),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    url: {
      value: cdktf.stringToHclTerraform(struct!.url),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    value: {
      value: cdktf.stringToHclTerraform(struct!.value),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    wait_ms: {
      value: cdktf.numberToHclTerraform(struct!.waitMs),
      isBlock: false,
      type: "simple",
      storageClassType: "number",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class MonitorSettingsStepsOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  * @param complexObjectIndex the index of this item in the list
  * @param complexObjectIsFromSet whether the list is wrapping a set (will add tolist() to be able to access an item via an index)
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string, complexObjectIndex: number, complexObjectIsFromSet: boolean) {
    super(terraformResource, terraformAttribute, complexObjectIsFromSet, complexObjectIndex);
  }

  public get internalValue(): MonitorSettingsSteps | cdktf.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._action !== undefined) {
      hasAnyValues = true;
      internalValueResult.action = this._action;
    }
    if (this._keywords !== undefined) {
      hasAnyValues = true;
      internalValueResult.keywords = this._keywords;
    }
    if (this._selector !== undefined) {
      hasAnyValues = true;
      internalValueResult.selector = this._selector;
    }
    if (this._url !== undefined) {
      hasAnyValues = true;
      internalValueResult.url = this._url;
    }
    if (this._value !== undefined) {
      hasAnyValues = true;
      internalValueResult.value = this._value;
    }
    if (this._waitMs !== undefined) {
      hasAnyValues = true;
      internalValueResult.waitMs = this._waitMs;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: MonitorSettingsSteps | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._action = undefined;
      this._keywords = undefined;
      this._selector = undefined;
      this._url = undefined;
      this._value = undefined;
      this._waitMs = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._action = value.action;
      this._keywords = value.keywords;
      this._selector = value.selector;
      this._url = value.url;
      this._value = value.value;
      this._waitMs = value.waitMs;
    }
  }

  // action - computed: true, optional: false, required: true
  private _action?: string; 
  public get action() {
    return this.getStringAttribute('action');
  }
  public set action(value: string) {
    this._action = value;
  }
  // Temporarily expose input value. Use with caution.
  public get actionInput() {
    return this._action;
  }

  // keywords - computed: true, optional: true, required: false
  private _keywords?: string[]; 
  public get keywords() {
    return this.getListAttribute('keywords');
  }
  public set keywords(value: string[]) {
    this._keywords = value;
  }
  public resetKeywords() {
    this._keywords = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get keywordsInput() {
    return this._keywords;
  }

  // selector - computed: true, optional: true, required: false
  private _selector?: string; 
  public get selector() {
    return this.getStringAttribute('selector');
  }
  public set selector(value: string) {
    this._selector = value;
  }
  public resetSelector() {
    this._selector = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get selectorInput() {
    return this._selector;
  }

  // synthesized - computed: true, optional: false, required: false
  public get synthesized() {
    return this.getBooleanAttribute('synthesized');
  }

  // url - computed: true, optional: true, required: false
  private _url?: string; 
  public get url() {
    return this.getStringAttribute('url');
  }
  public set url(value: string) {
    this._url = value;
  }
  public resetUrl() {
    this._url = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get urlInput() {
    return this._url;
  }

  // value - computed: true, optional: true, required: false
  private _value?: string; 
  public get value() {
    return this.getStringAttribute('value');
  }
  public set value(value: string) {
    this._value = value;
  }
  public resetValue() {
    this._value = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get valueInput() {
    return this._value;
  }

  // wait_ms - computed: true, optional: true, required: false
  private _waitMs?: number; 
  public get waitMs() {
    return this.getNumberAttribute('wait_ms');
  }
  public set waitMs(value: number) {
    this._waitMs = value;
  }
  public resetWaitMs() {
    this._waitMs = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get waitMsInput() {
    return this._waitMs;
  }
}

export class MonitorSettingsStepsList extends cdktf.ComplexList {
  public internalValue? : MonitorSettingsSteps[] | cdktf.IResolvable

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  * @param wrapsSet whether the list is wrapping a set (will add tolist() to be able to access an item via an index)
  */
  constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string, wrapsSet: boolean) {
    super(terraformResource, terraformAttribute, wrapsSet)
  }

  /**
  * @param index the index of the item to return
  */
  public get(index: number): MonitorSettingsStepsOutputReference {
    return new MonitorSettingsStepsOutputReference(this.terraformResource, this.terraformAttribute, index, this.wrapsSet);
  }
}
export interface MonitorSettings {
  /**
  * Accept. Default: "* /*". Types: http, api.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#accept Monitor#accept}
   *
  * Note: The above comment contained a comment block ending sequence (* followed by /). We have introduced a space between to prevent syntax errors. Please ignore the space.
  */
  readonly accept?: string;
  /**
  * Judge by assertion rules instead of keywords or expectation. Default: false. Types: http, api.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#assert_mode Monitor#assert_mode}
  */
  readonly assertMode?: boolean | cdktf.IResolvable;
  /**
  * Assertion rules; at most 20, or the plan's lower cap. Types: http, api.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#asserts Monitor#asserts}
  */
  readonly asserts?: MonitorSettingsAsserts[] | cdktf.IResolvable;
  /**
  * Write only: one rule per line, parsed into `asserts`. Types: http, api.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#asserts_source Monitor#asserts_source}
  */
  readonly assertsSource?: string;
  /**
  * Sub-checks riding on the monitor; each true, false or {enabled}. Default all off. The top-level `attached` is the same member: write one of the two, never both. Types: http, api, ping, port.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#attached Monitor#attached}
  */
  readonly attached?: MonitorSettingsAttached;
  /**
  * Credential. SNMP v3 authentication key. Types: snmp.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#auth_key Monitor#auth_key}
  */
  readonly authKey?: string;
  /**
  * Send Basic credentials on the first request. One of: "Basic". Types: http, api.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#auth_schema Monitor#auth_schema}
  */
  readonly authSchema?: string;
  /**
  * Fail on 128-bit or weaker ciphers. Plan feature `sslPolicy`. Default: false. Types: http, api, port.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#block_weak_ciphers Monitor#block_weak_ciphers}
  */
  readonly blockWeakCiphers?: boolean | cdktf.IResolvable;
  /**
  * Sent with POST, PUT, PATCH. Types: http, api.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#body Monitor#body}
  */
  readonly body?: string;
  /**
  * Case sensitive. Default: false. Types: cntCheck.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#case_sensitive Monitor#case_sensitive}
  */
  readonly caseSensitive?: boolean | cdktf.IResolvable;
  /**
  * Expiry reminder thresholds in days; attached sslExp uses 30, 7, 1 when empty. Types: http, api, port.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#cert_watch_days Monitor#cert_watch_days}
  */
  readonly certWatchDays?: number[];
  /**
  * Fail on a revoked certificate. Plan feature `certRevocation`. Default: false. Types: http, api, port.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#check_revocation Monitor#check_revocation}
  */
  readonly checkRevocation?: boolean | cdktf.IResolvable;
  /**
  * Credential. SNMP v1/v2c community string. Types: snmp.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#community Monitor#community}
  */
  readonly community?: string;
  /**
  * Credential. Connection string the probe uses. Types: database.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#connection_string Monitor#connection_string}
  */
  readonly connectionString?: string;
  /**
  * Fail on a console error. Default: false. Types: tran.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#console_error Monitor#console_error}
  */
  readonly consoleError?: boolean | cdktf.IResolvable;
  /**
  * How `valueSelector` reads the body. Required unless `assertMode` is on. One of: "application/json", "text/xml", "text/plain". Types: api.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#content_type Monitor#content_type}
  */
  readonly contentType?: string;
  /**
  * A device name from `GET /check/device`. Default: "Desktop". Types: waterfall.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#device_emulation Monitor#device_emulation}
  */
  readonly deviceEmulation?: string;
  /**
  * Own resolvers. Plan feature `dnsManual`. Types: http, api, ping, port.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#dns Monitor#dns}
  */
  readonly dns?: string[];
  /**
  * Dns no cache. Default: false. Types: http, api.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#dns_no_cache Monitor#dns_no_cache}
  */
  readonly dnsNoCache?: boolean | cdktf.IResolvable;
  /**
  * Any 3xx fails. Default: false. Types: http, api.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#error_on_redirect Monitor#error_on_redirect}
  */
  readonly errorOnRedirect?: boolean | cdktf.IResolvable;
  /**
  * Statuses counted as failure. Types: http, api.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#error_statuses Monitor#error_statuses}
  */
  readonly errorStatuses?: number[];
  /**
  * Condition on the selected value; none = no validation. Types: api.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#expectation Monitor#expectation}
  */
  readonly expectation?: MonitorSettingsExpectation;
  /**
  * Tolerated console errors. Default: []. Types: tran.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#expected_console_errors Monitor#expected_console_errors}
  */
  readonly expectedConsoleErrors?: string[];
  /**
  * Public DNS servers to skip. Types: http, api, ping, port.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#expected_dns Monitor#expected_dns}
  */
  readonly expectedDns?: string[];
  /**
  * The host must resolve to one of these. Types: http, api, ping, port.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#expected_ips Monitor#expected_ips}
  */
  readonly expectedIps?: string[];
  /**
  * Final screenshot. Default: true. Types: tran.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#final_screenshot Monitor#final_screenshot}
  */
  readonly finalScreenshot?: boolean | cdktf.IResolvable;
  /**
  * Follow redirect. Default: true. Types: http, api.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#follow_redirect Monitor#follow_redirect}
  */
  readonly followRedirect?: boolean | cdktf.IResolvable;
  /**
  * Request headers; names and values together up to 1023 characters. connection, content-length and date are dropped. Types: http, api.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#headers Monitor#headers}
  */
  readonly headers?: MonitorSettingsHeaders[] | cdktf.IResolvable;
  /**
  * Statuses counted as success. Types: http, api.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#ignored_statuses Monitor#ignored_statuses}
  */
  readonly ignoredStatuses?: number[];
  /**
  * Required. Several keywords are separated by `;`. Types: cntCheck.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#keyword Monitor#keyword}
  */
  readonly keyword?: string;
  /**
  * How the keywords combine. Despite its name, true needs every keyword and false (the default) any one: with keywordPresent true, the check fails when any keyword is missing (true) or none is found (false); with keywordPresent false, when any is found (true) or all are found (false). Types: cntCheck.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#keyword_any Monitor#keyword_any}
  */
  readonly keywordAny?: boolean | cdktf.IResolvable;
  /**
  * Keyword mode. One of: "PresentAny", "PresentAll", "ReverseAny", "ReverseAll", "ReverseWithResult". Default: "PresentAny". Types: http.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#keyword_mode Monitor#keyword_mode}
  */
  readonly keywordMode?: string;
  /**
  * true: must be present; false: must be absent. Default: true. Types: cntCheck.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#keyword_present Monitor#keyword_present}
  */
  readonly keywordPresent?: boolean | cdktf.IResolvable;
  /**
  * Comma-separated words searched in the body. Types: http.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#keywords Monitor#keywords}
  */
  readonly keywords?: string;
  /**
  * Max redirects. Default: 20. Types: http, api.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#max_redirects Monitor#max_redirects}
  */
  readonly maxRedirects?: number;
  /**
  * Bytes downloaded; values above 10485760 are stored as 10485760. Default: 1048576. Types: http, api.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#max_size Monitor#max_size}
  */
  readonly maxSize?: number;
  /**
  * H HEAD, G GET, P POST, U PUT, D DELETE, A PATCH. One of: "H", "G", "P", "U", "D", "A". Default: "G". Types: http, api.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#method Monitor#method}
  */
  readonly method?: string;
  /**
  * Failed XHR/fetch requests. 0 = off. Default: 0. Types: waterfall.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#on_ajax Monitor#on_ajax}
  */
  readonly onAjax?: number;
  /**
  * Console errors. 0 = off. Default: 0. Types: waterfall.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#on_console_error Monitor#on_console_error}
  */
  readonly onConsoleError?: number;
  /**
  * Console warnings. 0 = off. Default: 0. Types: waterfall.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#on_console_warning Monitor#on_console_warning}
  */
  readonly onConsoleWarning?: number;
  /**
  * Sustained CPU percent (80-100) above which the check fails. 0 = off. Default: 0. Types: waterfall.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#on_cpu Monitor#on_cpu}
  */
  readonly onCpu?: number;
  /**
  * Failed documents. 0 = off. Default: 0. Types: waterfall.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#on_document Monitor#on_document}
  */
  readonly onDocument?: number;
  /**
  * Failed fonts. 0 = off. Default: 0. Types: waterfall.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#on_font Monitor#on_font}
  */
  readonly onFont?: number;
  /**
  * Failed images. 0 = off. Default: 0. Types: waterfall.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#on_image Monitor#on_image}
  */
  readonly onImage?: number;
  /**
  * Sustained memory in MB above which the check fails. 0 = off. Default: 0. Types: waterfall.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#on_ram Monitor#on_ram}
  */
  readonly onRam?: number;
  /**
  * Failed scripts. 0 = off. Default: 0. Types: waterfall.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#on_script Monitor#on_script}
  */
  readonly onScript?: number;
  /**
  * Failed stylesheets. 0 = off. Default: 0. Types: waterfall.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#on_stylesheet Monitor#on_stylesheet}
  */
  readonly onStylesheet?: number;
  /**
  * Only visible. Default: true. Types: cntCheck.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#only_visible Monitor#only_visible}
  */
  readonly onlyVisible?: boolean | cdktf.IResolvable;
  /**
  * http, api: Credential. database: Credential. Password, when not part of the connection string. Types: http, api, database.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#password Monitor#password}
  */
  readonly password?: string;
  /**
  * Text expected in the banner. Types: port.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#pattern Monitor#pattern}
  */
  readonly pattern?: string;
  /**
  * Form-encoded body (older form field). Types: http, api.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#post_parameters Monitor#post_parameters}
  */
  readonly postParameters?: string;
  /**
  * Builds the entire settings object and pins locations; sent alone. One of: "bl:ru". Types: http.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#preset Monitor#preset}
  */
  readonly preset?: string;
  /**
  * Credential. SNMP v3 privacy key. Types: snmp.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#priv_key Monitor#priv_key}
  */
  readonly privKey?: string;
  /**
  * Address of the private probe. Types: counter.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#probe_url Monitor#probe_url}
  */
  readonly probeUrl?: string;
  /**
  * Public resolver, 0 = off. Plan feature `dnsPublic`. Default: 0. Types: http, api, ping, port.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#public_dns Monitor#public_dns}
  */
  readonly publicDns?: number;
  /**
  * Defaults to the service's results URL. Types: http, api.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#referer Monitor#referer}
  */
  readonly referer?: string;
  /**
  * Fail below TLS 1.2. Plan feature `sslPolicy`. Default: false. Types: http, api, port.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#require_strong_tls Monitor#require_strong_tls}
  */
  readonly requireStrongTls?: boolean | cdktf.IResolvable;
  /**
  * Fail on a bad certificate chain. Plan feature `sslPolicy`. Default: false. Types: http, api, port.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#require_valid_chain Monitor#require_valid_chain}
  */
  readonly requireValidChain?: boolean | cdktf.IResolvable;
  /**
  * Skip media. Default: true. Types: tran.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#skip_media Monitor#skip_media}
  */
  readonly skipMedia?: boolean | cdktf.IResolvable;
  /**
  * Negotiate TLS. Default: false. Types: port.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#ssl Monitor#ssl}
  */
  readonly ssl?: boolean | cdktf.IResolvable;
  /**
  * 1-10 steps run in order; replaced whole on PATCH. Types: tran.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#steps Monitor#steps}
  */
  readonly steps?: MonitorSettingsSteps[] | cdktf.IResolvable;
  /**
  * http, api, cntCheck: Timeout. Default: 40000. waterfall: Page load of at least this many ms fails. 0 = off. Default: 0. tran: Above 40000 is refused, not clamped. Default: 40000. Types: http, api, waterfall, cntCheck, tran.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#timeout Monitor#timeout}
  */
  readonly timeout?: number;
  /**
  * Failed resources of any kind reaching this count fail. 0 = off. Default: 0. Types: waterfall.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#total_count Monitor#total_count}
  */
  readonly totalCount?: number;
  /**
  * Defaults to the service's own user agent. Types: http, api.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#user_agent Monitor#user_agent}
  */
  readonly userAgent?: string;
  /**
  * Answers a server authentication challenge. Types: http, api.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#username Monitor#username}
  */
  readonly username?: string;
  /**
  * JSONPath/property, XPath or regex; empty = whole body. Default: "". Types: api.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#value_selector Monitor#value_selector}
  */
  readonly valueSelector?: string;
  /**
  * Page load excluding XHR/fetch of at least this many ms fails. 0 = off. Default: 0. Types: waterfall.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#xhr Monitor#xhr}
  */
  readonly xhr?: number;
}

export function monitorSettingsToTerraform(struct?: MonitorSettings | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    accept: cdktf.stringToTerraform(struct!.accept),
    assert_mode: cdktf.booleanToTerraform(struct!.assertMode),
    asserts: cdktf.listMapper(monitorSettingsAssertsToTerraform, false)(struct!.asserts),
    asserts_source: cdktf.stringToTerraform(struct!.assertsSource),
    attached: monitorSettingsAttachedToTerraform(struct!.attached),
    auth_key: cdktf.stringToTerraform(struct!.authKey),
    auth_schema: cdktf.stringToTerraform(struct!.authSchema),
    block_weak_ciphers: cdktf.booleanToTerraform(struct!.blockWeakCiphers),
    body: cdktf.stringToTerraform(struct!.body),
    case_sensitive: cdktf.booleanToTerraform(struct!.caseSensitive),
    cert_watch_days: cdktf.listMapper(cdktf.numberToTerraform, false)(struct!.certWatchDays),
    check_revocation: cdktf.booleanToTerraform(struct!.checkRevocation),
    community: cdktf.stringToTerraform(struct!.community),
    connection_string: cdktf.stringToTerraform(struct!.connectionString),
    console_error: cdktf.booleanToTerraform(struct!.consoleError),
    content_type: cdktf.stringToTerraform(struct!.contentType),
    device_emulation: cdktf.stringToTerraform(struct!.deviceEmulation),
    dns: cdktf.listMapper(cdktf.stringToTerraform, false)(struct!.dns),
    dns_no_cache: cdktf.booleanToTerraform(struct!.dnsNoCache),
    error_on_redirect: cdktf.booleanToTerraform(struct!.errorOnRedirect),
    error_statuses: cdktf.listMapper(cdktf.numberToTerraform, false)(struct!.errorStatuses),
    expectation: monitorSettingsExpectationToTerraform(struct!.expectation),
    expected_console_errors: cdktf.listMapper(cdktf.stringToTerraform, false)(struct!.expectedConsoleErrors),
    expected_dns: cdktf.listMapper(cdktf.stringToTerraform, false)(struct!.expectedDns),
    expected_ips: cdktf.listMapper(cdktf.stringToTerraform, false)(struct!.expectedIps),
    final_screenshot: cdktf.booleanToTerraform(struct!.finalScreenshot),
    follow_redirect: cdktf.booleanToTerraform(struct!.followRedirect),
    headers: cdktf.listMapper(monitorSettingsHeadersToTerraform, false)(struct!.headers),
    ignored_statuses: cdktf.listMapper(cdktf.numberToTerraform, false)(struct!.ignoredStatuses),
    keyword: cdktf.stringToTerraform(struct!.keyword),
    keyword_any: cdktf.booleanToTerraform(struct!.keywordAny),
    keyword_mode: cdktf.stringToTerraform(struct!.keywordMode),
    keyword_present: cdktf.booleanToTerraform(struct!.keywordPresent),
    keywords: cdktf.stringToTerraform(struct!.keywords),
    max_redirects: cdktf.numberToTerraform(struct!.maxRedirects),
    max_size: cdktf.numberToTerraform(struct!.maxSize),
    method: cdktf.stringToTerraform(struct!.method),
    on_ajax: cdktf.numberToTerraform(struct!.onAjax),
    on_console_error: cdktf.numberToTerraform(struct!.onConsoleError),
    on_console_warning: cdktf.numberToTerraform(struct!.onConsoleWarning),
    on_cpu: cdktf.numberToTerraform(struct!.onCpu),
    on_document: cdktf.numberToTerraform(struct!.onDocument),
    on_font: cdktf.numberToTerraform(struct!.onFont),
    on_image: cdktf.numberToTerraform(struct!.onImage),
    on_ram: cdktf.numberToTerraform(struct!.onRam),
    on_script: cdktf.numberToTerraform(struct!.onScript),
    on_stylesheet: cdktf.numberToTerraform(struct!.onStylesheet),
    only_visible: cdktf.booleanToTerraform(struct!.onlyVisible),
    password: cdktf.stringToTerraform(struct!.password),
    pattern: cdktf.stringToTerraform(struct!.pattern),
    post_parameters: cdktf.stringToTerraform(struct!.postParameters),
    preset: cdktf.stringToTerraform(struct!.preset),
    priv_key: cdktf.stringToTerraform(struct!.privKey),
    probe_url: cdktf.stringToTerraform(struct!.probeUrl),
    public_dns: cdktf.numberToTerraform(struct!.publicDns),
    referer: cdktf.stringToTerraform(struct!.referer),
    require_strong_tls: cdktf.booleanToTerraform(struct!.requireStrongTls),
    require_valid_chain: cdktf.booleanToTerraform(struct!.requireValidChain),
    skip_media: cdktf.booleanToTerraform(struct!.skipMedia),
    ssl: cdktf.booleanToTerraform(struct!.ssl),
    steps: cdktf.listMapper(monitorSettingsStepsToTerraform, false)(struct!.steps),
    timeout: cdktf.numberToTerraform(struct!.timeout),
    total_count: cdktf.numberToTerraform(struct!.totalCount),
    user_agent: cdktf.stringToTerraform(struct!.userAgent),
    username: cdktf.stringToTerraform(struct!.username),
    value_selector: cdktf.stringToTerraform(struct!.valueSelector),
    xhr: cdktf.numberToTerraform(struct!.xhr),
  }
}


export function monitorSettingsToHclTerraform(struct?: MonitorSettings | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    accept: {
      value: cdktf.stringToHclTerraform(struct!.accept),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    assert_mode: {
      value: cdktf.booleanToHclTerraform(struct!.assertMode),
      isBlock: false,
      type: "simple",
      storageClassType: "boolean",
    },
    asserts: {
      value: cdktf.listMapperHcl(monitorSettingsAssertsToHclTerraform, false)(struct!.asserts),
      isBlock: false,
      type: "list",
      storageClassType: "MonitorSettingsAssertsList",
    },
    asserts_source: {
      value: cdktf.stringToHclTerraform(struct!.assertsSource),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    attached: {
      value: monitorSettingsAttachedToHclTerraform(struct!.attached),
      isBlock: false,
      type: "list",
      storageClassType: "MonitorSettingsAttached",
    },
    auth_key: {
      value: cdktf.stringToHclTerraform(struct!.authKey),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    auth_schema: {
      value: cdktf.stringToHclTerraform(struct!.authSchema),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    block_weak_ciphers: {
      value: cdktf.booleanToHclTerraform(struct!.blockWeakCiphers),
      isBlock: false,
      type: "simple",
      storageClassType: "boolean",
    },
    body: {
      value: cdktf.stringToHclTerraform(struct!.body),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    case_sensitive: {
      value: cdktf.booleanToHclTerraform(struct!.caseSensitive),
      isBlock: false,
      type: "simple",
      storageClassType: "boolean",
    },
    cert_watch_days: {
      value: cdktf.listMapperHcl(cdktf.numberToHclTerraform, false)(struct!.certWatchDays),
      isBlock: false,
      type: "set",
      storageClassType: "numberList",
    },
    check_revocation: {
      value: cdktf.booleanToHclTerraform(struct!.checkRevocation),
      isBlock: false,
      type: "simple",
      storageClassType: "boolean",
    },
    community: {
      value: cdktf.stringToHclTerraform(struct!.community),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    connection_string: {
      value: cdktf.stringToHclTerraform(struct!.connectionString),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    console_error: {
      value: cdktf.booleanToHclTerraform(struct!.consoleError),
      isBlock: false,
      type: "simple",
      storageClassType: "boolean",
    },
    content_type: {
      value: cdktf.stringToHclTerraform(struct!.contentType),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    device_emulation: {
      value: cdktf.stringToHclTerraform(struct!.deviceEmulation),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    dns: {
      value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(struct!.dns),
      isBlock: false,
      type: "set",
      storageClassType: "stringList",
    },
    dns_no_cache: {
      value: cdktf.booleanToHclTerraform(struct!.dnsNoCache),
      isBlock: false,
      type: "simple",
      storageClassType: "boolean",
    },
    error_on_redirect: {
      value: cdktf.booleanToHclTerraform(struct!.errorOnRedirect),
      isBlock: false,
      type: "simple",
      storageClassType: "boolean",
    },
    error_statuses: {
      value: cdktf.listMapperHcl(cdktf.numberToHclTerraform, false)(struct!.errorStatuses),
      isBlock: false,
      type: "set",
      storageClassType: "numberList",
    },
    expectation: {
      value: monitorSettingsExpectationToHclTerraform(struct!.expectation),
      isBlock: false,
      type: "list",
      storageClassType: "MonitorSettingsExpectation",
    },
    expected_console_errors: {
      value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(struct!.expectedConsoleErrors),
      isBlock: false,
      type: "list",
      storageClassType: "stringList",
    },
    expected_dns: {
      value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(struct!.expectedDns),
      isBlock: false,
      type: "set",
      storageClassType: "stringList",
    },
    expected_ips: {
      value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(struct!.expectedIps),
      isBlock: false,
      type: "set",
      storageClassType: "stringList",
    },
    final_screenshot: {
      value: cdktf.booleanToHclTerraform(struct!.finalScreenshot),
      isBlock: false,
      type: "simple",
      storageClassType: "boolean",
    },
    follow_redirect: {
      value: cdktf.booleanToHclTerraform(struct!.followRedirect),
      isBlock: false,
      type: "simple",
      storageClassType: "boolean",
    },
    headers: {
      value: cdktf.listMapperHcl(monitorSettingsHeadersToHclTerraform, false)(struct!.headers),
      isBlock: false,
      type: "list",
      storageClassType: "MonitorSettingsHeadersList",
    },
    ignored_statuses: {
      value: cdktf.listMapperHcl(cdktf.numberToHclTerraform, false)(struct!.ignoredStatuses),
      isBlock: false,
      type: "set",
      storageClassType: "numberList",
    },
    keyword: {
      value: cdktf.stringToHclTerraform(struct!.keyword),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    keyword_any: {
      value: cdktf.booleanToHclTerraform(struct!.keywordAny),
      isBlock: false,
      type: "simple",
      storageClassType: "boolean",
    },
    keyword_mode: {
      value: cdktf.stringToHclTerraform(struct!.keywordMode),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    keyword_present: {
      value: cdktf.booleanToHclTerraform(struct!.keywordPresent),
      isBlock: false,
      type: "simple",
      storageClassType: "boolean",
    },
    keywords: {
      value: cdktf.stringToHclTerraform(struct!.keywords),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    max_redirects: {
      value: cdktf.numberToHclTerraform(struct!.maxRedirects),
      isBlock: false,
      type: "simple",
      storageClassType: "number",
    },
    max_size: {
      value: cdktf.numberToHclTerraform(struct!.maxSize),
      isBlock: false,
      type: "simple",
      storageClassType: "number",
    },
    method: {
      value: cdktf.stringToHclTerraform(struct!.method),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    on_ajax: {
      value: cdktf.numberToHclTerraform(struct!.onAjax),
      isBlock: false,
      type: "simple",
      storageClassType: "number",
    },
    on_console_error: {
      value: cdktf.numberToHclTerraform(struct!.onConsoleError),
      isBlock: false,
      type: "simple",
      storageClassType: "number",
    },
    on_console_warning: {
      value: cdktf.numberToHclTerraform(struct!.onConsoleWarning),
      isBlock: false,
      type: "simple",
      storageClassType: "number",
    },
    on_cpu: {
      value: cdktf.numberToHclTerraform(struct!.onCpu),
      isBlock: false,
      type: "simple",
      storageClassType: "number",
    },
    on_document: {
      value: cdktf.numberToHclTerraform(struct!.onDocument),
      isBlock: false,
      type: "simple",
      storageClassType: "number",
    },
    on_font: {
      value: cdktf.numberToHclTerraform(struct!.onFont),
      isBlock: false,
      type: "simple",
      storageClassType: "number",
    },
    on_image: {
      value: cdktf.numberToHclTerraform(struct!.onImage),
      isBlock: false,
      type: "simple",
      storageClassType: "number",
    },
    on_ram: {
      value: cdktf.numberToHclTerraform(struct!.onRam),
      isBlock: false,
      type: "simple",
      storageClassType: "number",
    },
    on_script: {
      value: cdktf.numberToHclTerraform(struct!.onScript),
      isBlock: false,
      type: "simple",
      storageClassType: "number",
    },
    on_stylesheet: {
      value: cdktf.numberToHclTerraform(struct!.onStylesheet),
      isBlock: false,
      type: "simple",
      storageClassType: "number",
    },
    only_visible: {
      value: cdktf.booleanToHclTerraform(struct!.onlyVisible),
      isBlock: false,
      type: "simple",
      storageClassType: "boolean",
    },
    password: {
      value: cdktf.stringToHclTerraform(struct!.password),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    pattern: {
      value: cdktf.stringToHclTerraform(struct!.pattern),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    post_parameters: {
      value: cdktf.stringToHclTerraform(struct!.postParameters),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    preset: {
      value: cdktf.stringToHclTerraform(struct!.preset),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    priv_key: {
      value: cdktf.stringToHclTerraform(struct!.privKey),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    probe_url: {
      value: cdktf.stringToHclTerraform(struct!.probeUrl),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    public_dns: {
      value: cdktf.numberToHclTerraform(struct!.publicDns),
      isBlock: false,
      type: "simple",
      storageClassType: "number",
    },
    referer: {
      value: cdktf.stringToHclTerraform(struct!.referer),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    require_strong_tls: {
      value: cdktf.booleanToHclTerraform(struct!.requireStrongTls),
      isBlock: false,
      type: "simple",
      storageClassType: "boolean",
    },
    require_valid_chain: {
      value: cdktf.booleanToHclTerraform(struct!.requireValidChain),
      isBlock: false,
      type: "simple",
      storageClassType: "boolean",
    },
    skip_media: {
      value: cdktf.booleanToHclTerraform(struct!.skipMedia),
      isBlock: false,
      type: "simple",
      storageClassType: "boolean",
    },
    ssl: {
      value: cdktf.booleanToHclTerraform(struct!.ssl),
      isBlock: false,
      type: "simple",
      storageClassType: "boolean",
    },
    steps: {
      value: cdktf.listMapperHcl(monitorSettingsStepsToHclTerraform, false)(struct!.steps),
      isBlock: false,
      type: "list",
      storageClassType: "MonitorSettingsStepsList",
    },
    timeout: {
      value: cdktf.numberToHclTerraform(struct!.timeout),
      isBlock: false,
      type: "simple",
      storageClassType: "number",
    },
    total_count: {
      value: cdktf.numberToHclTerraform(struct!.totalCount),
      isBlock: false,
      type: "simple",
      storageClassType: "number",
    },
    user_agent: {
      value: cdktf.stringToHclTerraform(struct!.userAgent),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    username: {
      value: cdktf.stringToHclTerraform(struct!.username),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    value_selector: {
      value: cdktf.stringToHclTerraform(struct!.valueSelector),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    xhr: {
      value: cdktf.numberToHclTerraform(struct!.xhr),
      isBlock: false,
      type: "simple",
      storageClassType: "number",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class MonitorSettingsOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;
  private resolvableValue?: cdktf.IResolvable;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): MonitorSettings | cdktf.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._accept !== undefined) {
      hasAnyValues = true;
      internalValueResult.accept = this._accept;
    }
    if (this._assertMode !== undefined) {
      hasAnyValues = true;
      internalValueResult.assertMode = this._assertMode;
    }
    if (this._asserts?.internalValue !== undefined) {
      hasAnyValues = true;
      internalValueResult.asserts = this._asserts?.internalValue;
    }
    if (this._assertsSource !== undefined) {
      hasAnyValues = true;
      internalValueResult.assertsSource = this._assertsSource;
    }
    if (this._attached?.internalValue !== undefined) {
      hasAnyValues = true;
      internalValueResult.attached = this._attached?.internalValue;
    }
    if (this._authKey !== undefined) {
      hasAnyValues = true;
      internalValueResult.authKey = this._authKey;
    }
    if (this._authSchema !== undefined) {
      hasAnyValues = true;
      internalValueResult.authSchema = this._authSchema;
    }
    if (this._blockWeakCiphers !== undefined) {
      hasAnyValues = true;
      internalValueResult.blockWeakCiphers = this._blockWeakCiphers;
    }
    if (this._body !== undefined) {
      hasAnyValues = true;
      internalValueResult.body = this._body;
    }
    if (this._caseSensitive !== undefined) {
      hasAnyValues = true;
      internalValueResult.caseSensitive = this._caseSensitive;
    }
    if (this._certWatchDays !== undefined) {
      hasAnyValues = true;
      internalValueResult.certWatchDays = this._certWatchDays;
    }
    if (this._checkRevocation !== undefined) {
      hasAnyValues = true;
      internalValueResult.checkRevocation = this._checkRevocation;
    }
    if (this._community !== undefined) {
      hasAnyValues = true;
      internalValueResult.community = this._community;
    }
    if (this._connectionString !== undefined) {
      hasAnyValues = true;
      internalValueResult.connectionString = this._connectionString;
    }
    if (this._consoleError !== undefined) {
      hasAnyValues = true;
      internalValueResult.consoleError = this._consoleError;
    }
    if (this._contentType !== undefined) {
      hasAnyValues = true;
      internalValueResult.contentType = this._contentType;
    }
    if (this._deviceEmulation !== undefined) {
      hasAnyValues = true;
      internalValueResult.deviceEmulation = this._deviceEmulation;
    }
    if (this._dns !== undefined) {
      hasAnyValues = true;
      internalValueResult.dns = this._dns;
    }
    if (this._dnsNoCache !== undefined) {
      hasAnyValues = true;
      internalValueResult.dnsNoCache = this._dnsNoCache;
    }
    if (this._errorOnRedirect !== undefined) {
      hasAnyValues = true;
      internalValueResult.errorOnRedirect = this._errorOnRedirect;
    }
    if (this._errorStatuses !== undefined) {
      hasAnyValues = true;
      internalValueResult.errorStatuses = this._errorStatuses;
    }
    if (this._expectation?.internalValue !== undefined) {
      hasAnyValues = true;
      internalValueResult.expectation = this._expectation?.internalValue;
    }
    if (this._expectedConsoleErrors !== undefined) {
      hasAnyValues = true;
      internalValueResult.expectedConsoleErrors = this._expectedConsoleErrors;
    }
    if (this._expectedDns !== undefined) {
      hasAnyValues = true;
      internalValueResult.expectedDns = this._expectedDns;
    }
    if (this._expectedIps !== undefined) {
      hasAnyValues = true;
      internalValueResult.expectedIps = this._expectedIps;
    }
    if (this._finalScreenshot !== undefined) {
      hasAnyValues = true;
      internalValueResult.finalScreenshot = this._finalScreenshot;
    }
    if (this._followRedirect !== undefined) {
      hasAnyValues = true;
      internalValueResult.followRedirect = this._followRedirect;
    }
    if (this._headers?.internalValue !== undefined) {
      hasAnyValues = true;
      internalValueResult.headers = this._headers?.internalValue;
    }
    if (this._ignoredStatuses !== undefined) {
      hasAnyValues = true;
      internalValueResult.ignoredStatuses = this._ignoredStatuses;
    }
    if (this._keyword !== undefined) {
      hasAnyValues = true;
      internalValueResult.keyword = this._keyword;
    }
    if (this._keywordAny !== undefined) {
      hasAnyValues = true;
      internalValueResult.keywordAny = this._keywordAny;
    }
    if (this._keywordMode !== undefined) {
      hasAnyValues = true;
      internalValueResult.keywordMode = this._keywordMode;
    }
    if (this._keywordPresent !== undefined) {
      hasAnyValues = true;
      internalValueResult.keywordPresent = this._keywordPresent;
    }
    if (this._keywords !== undefined) {
      hasAnyValues = true;
      internalValueResult.keywords = this._keywords;
    }
    if (this._maxRedirects !== undefined) {
      hasAnyValues = true;
      internalValueResult.maxRedirects = this._maxRedirects;
    }
    if (this._maxSize !== undefined) {
      hasAnyValues = true;
      internalValueResult.maxSize = this._maxSize;
    }
    if (this._method !== undefined) {
      hasAnyValues = true;
      internalValueResult.method = this._method;
    }
    if (this._onAjax !== undefined) {
      hasAnyValues = true;
      internalValueResult.onAjax = this._onAjax;
    }
    if (this._onConsoleError !== undefined) {
      hasAnyValues = true;
      internalValueResult.onConsoleError = this._onConsoleError;
    }
    if (this._onConsoleWarning !== undefined) {
      hasAnyValues = true;
      internalValueResult.onConsoleWarning = this._onConsoleWarning;
    }
    if (this._onCpu !== undefined) {
      hasAnyValues = true;
      internalValueResult.onCpu = this._onCpu;
    }
    if (this._onDocument !== undefined) {
      hasAnyValues = true;
      internalValueResult.onDocument = this._onDocument;
    }
    if (this._onFont !== undefined) {
      hasAnyValues = true;
      internalValueResult.onFont = this._onFont;
    }
    if (this._onImage !== undefined) {
      hasAnyValues = true;
      internalValueResult.onImage = this._onImage;
    }
    if (this._onRam !== undefined) {
      hasAnyValues = true;
      internalValueResult.onRam = this._onRam;
    }
    if (this._onScript !== undefined) {
      hasAnyValues = true;
      internalValueResult.onScript = this._onScript;
    }
    if (this._onStylesheet !== undefined) {
      hasAnyValues = true;
      internalValueResult.onStylesheet = this._onStylesheet;
    }
    if (this._onlyVisible !== undefined) {
      hasAnyValues = true;
      internalValueResult.onlyVisible = this._onlyVisible;
    }
    if (this._password !== undefined) {
      hasAnyValues = true;
      internalValueResult.password = this._password;
    }
    if (this._pattern !== undefined) {
      hasAnyValues = true;
      internalValueResult.pattern = this._pattern;
    }
    if (this._postParameters !== undefined) {
      hasAnyValues = true;
      internalValueResult.postParameters = this._postParameters;
    }
    if (this._preset !== undefined) {
      hasAnyValues = true;
      internalValueResult.preset = this._preset;
    }
    if (this._privKey !== undefined) {
      hasAnyValues = true;
      internalValueResult.privKey = this._privKey;
    }
    if (this._probeUrl !== undefined) {
      hasAnyValues = true;
      internalValueResult.probeUrl = this._probeUrl;
    }
    if (this._publicDns !== undefined) {
      hasAnyValues = true;
      internalValueResult.publicDns = this._publicDns;
    }
    if (this._referer !== undefined) {
      hasAnyValues = true;
      internalValueResult.referer = this._referer;
    }
    if (this._requireStrongTls !== undefined) {
      hasAnyValues = true;
      internalValueResult.requireStrongTls = this._requireStrongTls;
    }
    if (this._requireValidChain !== undefined) {
      hasAnyValues = true;
      internalValueResult.requireValidChain = this._requireValidChain;
    }
    if (this._skipMedia !== undefined) {
      hasAnyValues = true;
      internalValueResult.skipMedia = this._skipMedia;
    }
    if (this._ssl !== undefined) {
      hasAnyValues = true;
      internalValueResult.ssl = this._ssl;
    }
    if (this._steps?.internalValue !== undefined) {
      hasAnyValues = true;
      internalValueResult.steps = this._steps?.internalValue;
    }
    if (this._timeout !== undefined) {
      hasAnyValues = true;
      internalValueResult.timeout = this._timeout;
    }
    if (this._totalCount !== undefined) {
      hasAnyValues = true;
      internalValueResult.totalCount = this._totalCount;
    }
    if (this._userAgent !== undefined) {
      hasAnyValues = true;
      internalValueResult.userAgent = this._userAgent;
    }
    if (this._username !== undefined) {
      hasAnyValues = true;
      internalValueResult.username = this._username;
    }
    if (this._valueSelector !== undefined) {
      hasAnyValues = true;
      internalValueResult.valueSelector = this._valueSelector;
    }
    if (this._xhr !== undefined) {
      hasAnyValues = true;
      internalValueResult.xhr = this._xhr;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: MonitorSettings | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._accept = undefined;
      this._assertMode = undefined;
      this._asserts.internalValue = undefined;
      this._assertsSource = undefined;
      this._attached.internalValue = undefined;
      this._authKey = undefined;
      this._authSchema = undefined;
      this._blockWeakCiphers = undefined;
      this._body = undefined;
      this._caseSensitive = undefined;
      this._certWatchDays = undefined;
      this._checkRevocation = undefined;
      this._community = undefined;
      this._connectionString = undefined;
      this._consoleError = undefined;
      this._contentType = undefined;
      this._deviceEmulation = undefined;
      this._dns = undefined;
      this._dnsNoCache = undefined;
      this._errorOnRedirect = undefined;
      this._errorStatuses = undefined;
      this._expectation.internalValue = undefined;
      this._expectedConsoleErrors = undefined;
      this._expectedDns = undefined;
      this._expectedIps = undefined;
      this._finalScreenshot = undefined;
      this._followRedirect = undefined;
      this._headers.internalValue = undefined;
      this._ignoredStatuses = undefined;
      this._keyword = undefined;
      this._keywordAny = undefined;
      this._keywordMode = undefined;
      this._keywordPresent = undefined;
      this._keywords = undefined;
      this._maxRedirects = undefined;
      this._maxSize = undefined;
      this._method = undefined;
      this._onAjax = undefined;
      this._onConsoleError = undefined;
      this._onConsoleWarning = undefined;
      this._onCpu = undefined;
      this._onDocument = undefined;
      this._onFont = undefined;
      this._onImage = undefined;
      this._onRam = undefined;
      this._onScript = undefined;
      this._onStylesheet = undefined;
      this._onlyVisible = undefined;
      this._password = undefined;
      this._pattern = undefined;
      this._postParameters = undefined;
      this._preset = undefined;
      this._privKey = undefined;
      this._probeUrl = undefined;
      this._publicDns = undefined;
      this._referer = undefined;
      this._requireStrongTls = undefined;
      this._requireValidChain = undefined;
      this._skipMedia = undefined;
      this._ssl = undefined;
      this._steps.internalValue = undefined;
      this._timeout = undefined;
      this._totalCount = undefined;
      this._userAgent = undefined;
      this._username = undefined;
      this._valueSelector = undefined;
      this._xhr = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._accept = value.accept;
      this._assertMode = value.assertMode;
      this._asserts.internalValue = value.asserts;
      this._assertsSource = value.assertsSource;
      this._attached.internalValue = value.attached;
      this._authKey = value.authKey;
      this._authSchema = value.authSchema;
      this._blockWeakCiphers = value.blockWeakCiphers;
      this._body = value.body;
      this._caseSensitive = value.caseSensitive;
      this._certWatchDays = value.certWatchDays;
      this._checkRevocation = value.checkRevocation;
      this._community = value.community;
      this._connectionString = value.connectionString;
      this._consoleError = value.consoleError;
      this._contentType = value.contentType;
      this._deviceEmulation = value.deviceEmulation;
      this._dns = value.dns;
      this._dnsNoCache = value.dnsNoCache;
      this._errorOnRedirect = value.errorOnRedirect;
      this._errorStatuses = value.errorStatuses;
      this._expectation.internalValue = value.expectation;
      this._expectedConsoleErrors = value.expectedConsoleErrors;
      this._expectedDns = value.expectedDns;
      this._expectedIps = value.expectedIps;
      this._finalScreenshot = value.finalScreenshot;
      this._followRedirect = value.followRedirect;
      this._headers.internalValue = value.headers;
      this._ignoredStatuses = value.ignoredStatuses;
      this._keyword = value.keyword;
      this._keywordAny = value.keywordAny;
      this._keywordMode = value.keywordMode;
      this._keywordPresent = value.keywordPresent;
      this._keywords = value.keywords;
      this._maxRedirects = value.maxRedirects;
      this._maxSize = value.maxSize;
      this._method = value.method;
      this._onAjax = value.onAjax;
      this._onConsoleError = value.onConsoleError;
      this._onConsoleWarning = value.onConsoleWarning;
      this._onCpu = value.onCpu;
      this._onDocument = value.onDocument;
      this._onFont = value.onFont;
      this._onImage = value.onImage;
      this._onRam = value.onRam;
      this._onScript = value.onScript;
      this._onStylesheet = value.onStylesheet;
      this._onlyVisible = value.onlyVisible;
      this._password = value.password;
      this._pattern = value.pattern;
      this._postParameters = value.postParameters;
      this._preset = value.preset;
      this._privKey = value.privKey;
      this._probeUrl = value.probeUrl;
      this._publicDns = value.publicDns;
      this._referer = value.referer;
      this._requireStrongTls = value.requireStrongTls;
      this._requireValidChain = value.requireValidChain;
      this._skipMedia = value.skipMedia;
      this._ssl = value.ssl;
      this._steps.internalValue = value.steps;
      this._timeout = value.timeout;
      this._totalCount = value.totalCount;
      this._userAgent = value.userAgent;
      this._username = value.username;
      this._valueSelector = value.valueSelector;
      this._xhr = value.xhr;
    }
  }

  // accept - computed: true, optional: true, required: false
  private _accept?: string; 
  public get accept() {
    return this.getStringAttribute('accept');
  }
  public set accept(value: string) {
    this._accept = value;
  }
  public resetAccept() {
    this._accept = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get acceptInput() {
    return this._accept;
  }

  // assert_mode - computed: true, optional: true, required: false
  private _assertMode?: boolean | cdktf.IResolvable; 
  public get assertMode() {
    return this.getBooleanAttribute('assert_mode');
  }
  public set assertMode(value: boolean | cdktf.IResolvable) {
    this._assertMode = value;
  }
  public resetAssertMode() {
    this._assertMode = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get assertModeInput() {
    return this._assertMode;
  }

  // asserts - computed: true, optional: true, required: false
  private _asserts = new MonitorSettingsAssertsList(this, "asserts", false);
  public get asserts() {
    return this._asserts;
  }
  public putAsserts(value: MonitorSettingsAsserts[] | cdktf.IResolvable) {
    this._asserts.internalValue = value;
  }
  public resetAsserts() {
    this._asserts.internalValue = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get assertsInput() {
    return this._asserts.internalValue;
  }

  // asserts_source - computed: true, optional: true, required: false
  private _assertsSource?: string; 
  public get assertsSource() {
    return this.getStringAttribute('asserts_source');
  }
  public set assertsSource(value: string) {
    this._assertsSource = value;
  }
  public resetAssertsSource() {
    this._assertsSource = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get assertsSourceInput() {
    return this._assertsSource;
  }

  // attached - computed: true, optional: true, required: false
  private _attached = new MonitorSettingsAttachedOutputReference(this, "attached");
  public get attached() {
    return this._attached;
  }
  public putAttached(value: MonitorSettingsAttached) {
    this._attached.internalValue = value;
  }
  public resetAttached() {
    this._attached.internalValue = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get attachedInput() {
    return this._attached.internalValue;
  }

  // auth_key - computed: true, optional: true, required: false
  private _authKey?: string; 
  public get authKey() {
    return this.getStringAttribute('auth_key');
  }
  public set authKey(value: string) {
    this._authKey = value;
  }
  public resetAuthKey() {
    this._authKey = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get authKeyInput() {
    return this._authKey;
  }

  // auth_schema - computed: true, optional: true, required: false
  private _authSchema?: string; 
  public get authSchema() {
    return this.getStringAttribute('auth_schema');
  }
  public set authSchema(value: string) {
    this._authSchema = value;
  }
  public resetAuthSchema() {
    this._authSchema = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get authSchemaInput() {
    return this._authSchema;
  }

  // block_weak_ciphers - computed: true, optional: true, required: false
  private _blockWeakCiphers?: boolean | cdktf.IResolvable; 
  public get blockWeakCiphers() {
    return this.getBooleanAttribute('block_weak_ciphers');
  }
  public set blockWeakCiphers(value: boolean | cdktf.IResolvable) {
    this._blockWeakCiphers = value;
  }
  public resetBlockWeakCiphers() {
    this._blockWeakCiphers = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get blockWeakCiphersInput() {
    return this._blockWeakCiphers;
  }

  // body - computed: true, optional: true, required: false
  private _body?: string; 
  public get body() {
    return this.getStringAttribute('body');
  }
  public set body(value: string) {
    this._body = value;
  }
  public resetBody() {
    this._body = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get bodyInput() {
    return this._body;
  }

  // case_sensitive - computed: true, optional: true, required: false
  private _caseSensitive?: boolean | cdktf.IResolvable; 
  public get caseSensitive() {
    return this.getBooleanAttribute('case_sensitive');
  }
  public set caseSensitive(value: boolean | cdktf.IResolvable) {
    this._caseSensitive = value;
  }
  public resetCaseSensitive() {
    this._caseSensitive = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get caseSensitiveInput() {
    return this._caseSensitive;
  }

  // cert_watch_days - computed: true, optional: true, required: false
  private _certWatchDays?: number[]; 
  public get certWatchDays() {
    return cdktf.Token.asNumberList(cdktf.Fn.tolist(this.getNumberListAttribute('cert_watch_days')));
  }
  public set certWatchDays(value: number[]) {
    this._certWatchDays = value;
  }
  public resetCertWatchDays() {
    this._certWatchDays = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get certWatchDaysInput() {
    return this._certWatchDays;
  }

  // check_revocation - computed: true, optional: true, required: false
  private _checkRevocation?: boolean | cdktf.IResolvable; 
  public get checkRevocation() {
    return this.getBooleanAttribute('check_revocation');
  }
  public set checkRevocation(value: boolean | cdktf.IResolvable) {
    this._checkRevocation = value;
  }
  public resetCheckRevocation() {
    this._checkRevocation = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get checkRevocationInput() {
    return this._checkRevocation;
  }

  // community - computed: true, optional: true, required: false
  private _community?: string; 
  public get community() {
    return this.getStringAttribute('community');
  }
  public set community(value: string) {
    this._community = value;
  }
  public resetCommunity() {
    this._community = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get communityInput() {
    return this._community;
  }

  // connection_string - computed: true, optional: true, required: false
  private _connectionString?: string; 
  public get connectionString() {
    return this.getStringAttribute('connection_string');
  }
  public set connectionString(value: string) {
    this._connectionString = value;
  }
  public resetConnectionString() {
    this._connectionString = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get connectionStringInput() {
    return this._connectionString;
  }

  // console_error - computed: true, optional: true, required: false
  private _consoleError?: boolean | cdktf.IResolvable; 
  public get consoleError() {
    return this.getBooleanAttribute('console_error');
  }
  public set consoleError(value: boolean | cdktf.IResolvable) {
    this._consoleError = value;
  }
  public resetConsoleError() {
    this._consoleError = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get consoleErrorInput() {
    return this._consoleError;
  }

  // content_type - computed: true, optional: true, required: false
  private _contentType?: string; 
  public get contentType() {
    return this.getStringAttribute('content_type');
  }
  public set contentType(value: string) {
    this._contentType = value;
  }
  public resetContentType() {
    this._contentType = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get contentTypeInput() {
    return this._contentType;
  }

  // device_emulation - computed: true, optional: true, required: false
  private _deviceEmulation?: string; 
  public get deviceEmulation() {
    return this.getStringAttribute('device_emulation');
  }
  public set deviceEmulation(value: string) {
    this._deviceEmulation = value;
  }
  public resetDeviceEmulation() {
    this._deviceEmulation = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get deviceEmulationInput() {
    return this._deviceEmulation;
  }

  // dns - computed: true, optional: true, required: false
  private _dns?: string[]; 
  public get dns() {
    return cdktf.Fn.tolist(this.getListAttribute('dns'));
  }
  public set dns(value: string[]) {
    this._dns = value;
  }
  public resetDns() {
    this._dns = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get dnsInput() {
    return this._dns;
  }

  // dns_no_cache - computed: true, optional: true, required: false
  private _dnsNoCache?: boolean | cdktf.IResolvable; 
  public get dnsNoCache() {
    return this.getBooleanAttribute('dns_no_cache');
  }
  public set dnsNoCache(value: boolean | cdktf.IResolvable) {
    this._dnsNoCache = value;
  }
  public resetDnsNoCache() {
    this._dnsNoCache = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get dnsNoCacheInput() {
    return this._dnsNoCache;
  }

  // error_on_redirect - computed: true, optional: true, required: false
  private _errorOnRedirect?: boolean | cdktf.IResolvable; 
  public get errorOnRedirect() {
    return this.getBooleanAttribute('error_on_redirect');
  }
  public set errorOnRedirect(value: boolean | cdktf.IResolvable) {
    this._errorOnRedirect = value;
  }
  public resetErrorOnRedirect() {
    this._errorOnRedirect = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get errorOnRedirectInput() {
    return this._errorOnRedirect;
  }

  // error_statuses - computed: true, optional: true, required: false
  private _errorStatuses?: number[]; 
  public get errorStatuses() {
    return cdktf.Token.asNumberList(cdktf.Fn.tolist(this.getNumberListAttribute('error_statuses')));
  }
  public set errorStatuses(value: number[]) {
    this._errorStatuses = value;
  }
  public resetErrorStatuses() {
    this._errorStatuses = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get errorStatusesInput() {
    return this._errorStatuses;
  }

  // expectation - computed: true, optional: true, required: false
  private _expectation = new MonitorSettingsExpectationOutputReference(this, "expectation");
  public get expectation() {
    return this._expectation;
  }
  public putExpectation(value: MonitorSettingsExpectation) {
    this._expectation.internalValue = value;
  }
  public resetExpectation() {
    this._expectation.internalValue = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get expectationInput() {
    return this._expectation.internalValue;
  }

  // expected_console_errors - computed: true, optional: true, required: false
  private _expectedConsoleErrors?: string[]; 
  public get expectedConsoleErrors() {
    return this.getListAttribute('expected_console_errors');
  }
  public set expectedConsoleErrors(value: string[]) {
    this._expectedConsoleErrors = value;
  }
  public resetExpectedConsoleErrors() {
    this._expectedConsoleErrors = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get expectedConsoleErrorsInput() {
    return this._expectedConsoleErrors;
  }

  // expected_dns - computed: true, optional: true, required: false
  private _expectedDns?: string[]; 
  public get expectedDns() {
    return cdktf.Fn.tolist(this.getListAttribute('expected_dns'));
  }
  public set expectedDns(value: string[]) {
    this._expectedDns = value;
  }
  public resetExpectedDns() {
    this._expectedDns = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get expectedDnsInput() {
    return this._expectedDns;
  }

  // expected_ips - computed: true, optional: true, required: false
  private _expectedIps?: string[]; 
  public get expectedIps() {
    return cdktf.Fn.tolist(this.getListAttribute('expected_ips'));
  }
  public set expectedIps(value: string[]) {
    this._expectedIps = value;
  }
  public resetExpectedIps() {
    this._expectedIps = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get expectedIpsInput() {
    return this._expectedIps;
  }

  // final_screenshot - computed: true, optional: true, required: false
  private _finalScreenshot?: boolean | cdktf.IResolvable; 
  public get finalScreenshot() {
    return this.getBooleanAttribute('final_screenshot');
  }
  public set finalScreenshot(value: boolean | cdktf.IResolvable) {
    this._finalScreenshot = value;
  }
  public resetFinalScreenshot() {
    this._finalScreenshot = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get finalScreenshotInput() {
    return this._finalScreenshot;
  }

  // follow_redirect - computed: true, optional: true, required: false
  private _followRedirect?: boolean | cdktf.IResolvable; 
  public get followRedirect() {
    return this.getBooleanAttribute('follow_redirect');
  }
  public set followRedirect(value: boolean | cdktf.IResolvable) {
    this._followRedirect = value;
  }
  public resetFollowRedirect() {
    this._followRedirect = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get followRedirectInput() {
    return this._followRedirect;
  }

  // headers - computed: true, optional: true, required: false
  private _headers = new MonitorSettingsHeadersList(this, "headers", false);
  public get headers() {
    return this._headers;
  }
  public putHeaders(value: MonitorSettingsHeaders[] | cdktf.IResolvable) {
    this._headers.internalValue = value;
  }
  public resetHeaders() {
    this._headers.internalValue = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get headersInput() {
    return this._headers.internalValue;
  }

  // ignored_statuses - computed: true, optional: true, required: false
  private _ignoredStatuses?: number[]; 
  public get ignoredStatuses() {
    return cdktf.Token.asNumberList(cdktf.Fn.tolist(this.getNumberListAttribute('ignored_statuses')));
  }
  public set ignoredStatuses(value: number[]) {
    this._ignoredStatuses = value;
  }
  public resetIgnoredStatuses() {
    this._ignoredStatuses = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get ignoredStatusesInput() {
    return this._ignoredStatuses;
  }

  // keyword - computed: true, optional: true, required: false
  private _keyword?: string; 
  public get keyword() {
    return this.getStringAttribute('keyword');
  }
  public set keyword(value: string) {
    this._keyword = value;
  }
  public resetKeyword() {
    this._keyword = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get keywordInput() {
    return this._keyword;
  }

  // keyword_any - computed: true, optional: true, required: false
  private _keywordAny?: boolean | cdktf.IResolvable; 
  public get keywordAny() {
    return this.getBooleanAttribute('keyword_any');
  }
  public set keywordAny(value: boolean | cdktf.IResolvable) {
    this._keywordAny = value;
  }
  public resetKeywordAny() {
    this._keywordAny = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get keywordAnyInput() {
    return this._keywordAny;
  }

  // keyword_mode - computed: true, optional: true, required: false
  private _keywordMode?: string; 
  public get keywordMode() {
    return this.getStringAttribute('keyword_mode');
  }
  public set keywordMode(value: string) {
    this._keywordMode = value;
  }
  public resetKeywordMode() {
    this._keywordMode = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get keywordModeInput() {
    return this._keywordMode;
  }

  // keyword_present - computed: true, optional: true, required: false
  private _keywordPresent?: boolean | cdktf.IResolvable; 
  public get keywordPresent() {
    return this.getBooleanAttribute('keyword_present');
  }
  public set keywordPresent(value: boolean | cdktf.IResolvable) {
    this._keywordPresent = value;
  }
  public resetKeywordPresent() {
    this._keywordPresent = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get keywordPresentInput() {
    return this._keywordPresent;
  }

  // keywords - computed: true, optional: true, required: false
  private _keywords?: string; 
  public get keywords() {
    return this.getStringAttribute('keywords');
  }
  public set keywords(value: string) {
    this._keywords = value;
  }
  public resetKeywords() {
    this._keywords = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get keywordsInput() {
    return this._keywords;
  }

  // max_redirects - computed: true, optional: true, required: false
  private _maxRedirects?: number; 
  public get maxRedirects() {
    return this.getNumberAttribute('max_redirects');
  }
  public set maxRedirects(value: number) {
    this._maxRedirects = value;
  }
  public resetMaxRedirects() {
    this._maxRedirects = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get maxRedirectsInput() {
    return this._maxRedirects;
  }

  // max_size - computed: true, optional: true, required: false
  private _maxSize?: number; 
  public get maxSize() {
    return this.getNumberAttribute('max_size');
  }
  public set maxSize(value: number) {
    this._maxSize = value;
  }
  public resetMaxSize() {
    this._maxSize = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get maxSizeInput() {
    return this._maxSize;
  }

  // method - computed: true, optional: true, required: false
  private _method?: string; 
  public get method() {
    return this.getStringAttribute('method');
  }
  public set method(value: string) {
    this._method = value;
  }
  public resetMethod() {
    this._method = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get methodInput() {
    return this._method;
  }

  // on_ajax - computed: true, optional: true, required: false
  private _onAjax?: number; 
  public get onAjax() {
    return this.getNumberAttribute('on_ajax');
  }
  public set onAjax(value: number) {
    this._onAjax = value;
  }
  public resetOnAjax() {
    this._onAjax = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get onAjaxInput() {
    return this._onAjax;
  }

  // on_console_error - computed: true, optional: true, required: false
  private _onConsoleError?: number; 
  public get onConsoleError() {
    return this.getNumberAttribute('on_console_error');
  }
  public set onConsoleError(value: number) {
    this._onConsoleError = value;
  }
  public resetOnConsoleError() {
    this._onConsoleError = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get onConsoleErrorInput() {
    return this._onConsoleError;
  }

  // on_console_warning - computed: true, optional: true, required: false
  private _onConsoleWarning?: number; 
  public get onConsoleWarning() {
    return this.getNumberAttribute('on_console_warning');
  }
  public set onConsoleWarning(value: number) {
    this._onConsoleWarning = value;
  }
  public resetOnConsoleWarning() {
    this._onConsoleWarning = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get onConsoleWarningInput() {
    return this._onConsoleWarning;
  }

  // on_cpu - computed: true, optional: true, required: false
  private _onCpu?: number; 
  public get onCpu() {
    return this.getNumberAttribute('on_cpu');
  }
  public set onCpu(value: number) {
    this._onCpu = value;
  }
  public resetOnCpu() {
    this._onCpu = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get onCpuInput() {
    return this._onCpu;
  }

  // on_document - computed: true, optional: true, required: false
  private _onDocument?: number; 
  public get onDocument() {
    return this.getNumberAttribute('on_document');
  }
  public set onDocument(value: number) {
    this._onDocument = value;
  }
  public resetOnDocument() {
    this._onDocument = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get onDocumentInput() {
    return this._onDocument;
  }

  // on_font - computed: true, optional: true, required: false
  private _onFont?: number; 
  public get onFont() {
    return this.getNumberAttribute('on_font');
  }
  public set onFont(value: number) {
    this._onFont = value;
  }
  public resetOnFont() {
    this._onFont = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get onFontInput() {
    return this._onFont;
  }

  // on_image - computed: true, optional: true, required: false
  private _onImage?: number; 
  public get onImage() {
    return this.getNumberAttribute('on_image');
  }
  public set onImage(value: number) {
    this._onImage = value;
  }
  public resetOnImage() {
    this._onImage = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get onImageInput() {
    return this._onImage;
  }

  // on_ram - computed: true, optional: true, required: false
  private _onRam?: number; 
  public get onRam() {
    return this.getNumberAttribute('on_ram');
  }
  public set onRam(value: number) {
    this._onRam = value;
  }
  public resetOnRam() {
    this._onRam = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get onRamInput() {
    return this._onRam;
  }

  // on_script - computed: true, optional: true, required: false
  private _onScript?: number; 
  public get onScript() {
    return this.getNumberAttribute('on_script');
  }
  public set onScript(value: number) {
    this._onScript = value;
  }
  public resetOnScript() {
    this._onScript = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get onScriptInput() {
    return this._onScript;
  }

  // on_stylesheet - computed: true, optional: true, required: false
  private _onStylesheet?: number; 
  public get onStylesheet() {
    return this.getNumberAttribute('on_stylesheet');
  }
  public set onStylesheet(value: number) {
    this._onStylesheet = value;
  }
  public resetOnStylesheet() {
    this._onStylesheet = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get onStylesheetInput() {
    return this._onStylesheet;
  }

  // only_visible - computed: true, optional: true, required: false
  private _onlyVisible?: boolean | cdktf.IResolvable; 
  public get onlyVisible() {
    return this.getBooleanAttribute('only_visible');
  }
  public set onlyVisible(value: boolean | cdktf.IResolvable) {
    this._onlyVisible = value;
  }
  public resetOnlyVisible() {
    this._onlyVisible = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get onlyVisibleInput() {
    return this._onlyVisible;
  }

  // password - computed: true, optional: true, required: false
  private _password?: string; 
  public get password() {
    return this.getStringAttribute('password');
  }
  public set password(value: string) {
    this._password = value;
  }
  public resetPassword() {
    this._password = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get passwordInput() {
    return this._password;
  }

  // pattern - computed: true, optional: true, required: false
  private _pattern?: string; 
  public get pattern() {
    return this.getStringAttribute('pattern');
  }
  public set pattern(value: string) {
    this._pattern = value;
  }
  public resetPattern() {
    this._pattern = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get patternInput() {
    return this._pattern;
  }

  // post_parameters - computed: true, optional: true, required: false
  private _postParameters?: string; 
  public get postParameters() {
    return this.getStringAttribute('post_parameters');
  }
  public set postParameters(value: string) {
    this._postParameters = value;
  }
  public resetPostParameters() {
    this._postParameters = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get postParametersInput() {
    return this._postParameters;
  }

  // preset - computed: true, optional: true, required: false
  private _preset?: string; 
  public get preset() {
    return this.getStringAttribute('preset');
  }
  public set preset(value: string) {
    this._preset = value;
  }
  public resetPreset() {
    this._preset = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get presetInput() {
    return this._preset;
  }

  // priv_key - computed: true, optional: true, required: false
  private _privKey?: string; 
  public get privKey() {
    return this.getStringAttribute('priv_key');
  }
  public set privKey(value: string) {
    this._privKey = value;
  }
  public resetPrivKey() {
    this._privKey = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get privKeyInput() {
    return this._privKey;
  }

  // probe_url - computed: true, optional: true, required: false
  private _probeUrl?: string; 
  public get probeUrl() {
    return this.getStringAttribute('probe_url');
  }
  public set probeUrl(value: string) {
    this._probeUrl = value;
  }
  public resetProbeUrl() {
    this._probeUrl = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get probeUrlInput() {
    return this._probeUrl;
  }

  // public_dns - computed: true, optional: true, required: false
  private _publicDns?: number; 
  public get publicDns() {
    return this.getNumberAttribute('public_dns');
  }
  public set publicDns(value: number) {
    this._publicDns = value;
  }
  public resetPublicDns() {
    this._publicDns = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get publicDnsInput() {
    return this._publicDns;
  }

  // referer - computed: true, optional: true, required: false
  private _referer?: string; 
  public get referer() {
    return this.getStringAttribute('referer');
  }
  public set referer(value: string) {
    this._referer = value;
  }
  public resetReferer() {
    this._referer = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get refererInput() {
    return this._referer;
  }

  // require_strong_tls - computed: true, optional: true, required: false
  private _requireStrongTls?: boolean | cdktf.IResolvable; 
  public get requireStrongTls() {
    return this.getBooleanAttribute('require_strong_tls');
  }
  public set requireStrongTls(value: boolean | cdktf.IResolvable) {
    this._requireStrongTls = value;
  }
  public resetRequireStrongTls() {
    this._requireStrongTls = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get requireStrongTlsInput() {
    return this._requireStrongTls;
  }

  // require_valid_chain - computed: true, optional: true, required: false
  private _requireValidChain?: boolean | cdktf.IResolvable; 
  public get requireValidChain() {
    return this.getBooleanAttribute('require_valid_chain');
  }
  public set requireValidChain(value: boolean | cdktf.IResolvable) {
    this._requireValidChain = value;
  }
  public resetRequireValidChain() {
    this._requireValidChain = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get requireValidChainInput() {
    return this._requireValidChain;
  }

  // skip_media - computed: true, optional: true, required: false
  private _skipMedia?: boolean | cdktf.IResolvable; 
  public get skipMedia() {
    return this.getBooleanAttribute('skip_media');
  }
  public set skipMedia(value: boolean | cdktf.IResolvable) {
    this._skipMedia = value;
  }
  public resetSkipMedia() {
    this._skipMedia = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get skipMediaInput() {
    return this._skipMedia;
  }

  // ssl - computed: true, optional: true, required: false
  private _ssl?: boolean | cdktf.IResolvable; 
  public get ssl() {
    return this.getBooleanAttribute('ssl');
  }
  public set ssl(value: boolean | cdktf.IResolvable) {
    this._ssl = value;
  }
  public resetSsl() {
    this._ssl = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get sslInput() {
    return this._ssl;
  }

  // steps - computed: true, optional: true, required: false
  private _steps = new MonitorSettingsStepsList(this, "steps", false);
  public get steps() {
    return this._steps;
  }
  public putSteps(value: MonitorSettingsSteps[] | cdktf.IResolvable) {
    this._steps.internalValue = value;
  }
  public resetSteps() {
    this._steps.internalValue = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get stepsInput() {
    return this._steps.internalValue;
  }

  // timeout - computed: true, optional: true, required: false
  private _timeout?: number; 
  public get timeout() {
    return this.getNumberAttribute('timeout');
  }
  public set timeout(value: number) {
    this._timeout = value;
  }
  public resetTimeout() {
    this._timeout = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get timeoutInput() {
    return this._timeout;
  }

  // total_count - computed: true, optional: true, required: false
  private _totalCount?: number; 
  public get totalCount() {
    return this.getNumberAttribute('total_count');
  }
  public set totalCount(value: number) {
    this._totalCount = value;
  }
  public resetTotalCount() {
    this._totalCount = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get totalCountInput() {
    return this._totalCount;
  }

  // user_agent - computed: true, optional: true, required: false
  private _userAgent?: string; 
  public get userAgent() {
    return this.getStringAttribute('user_agent');
  }
  public set userAgent(value: string) {
    this._userAgent = value;
  }
  public resetUserAgent() {
    this._userAgent = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get userAgentInput() {
    return this._userAgent;
  }

  // username - computed: true, optional: true, required: false
  private _username?: string; 
  public get username() {
    return this.getStringAttribute('username');
  }
  public set username(value: string) {
    this._username = value;
  }
  public resetUsername() {
    this._username = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get usernameInput() {
    return this._username;
  }

  // value_selector - computed: true, optional: true, required: false
  private _valueSelector?: string; 
  public get valueSelector() {
    return this.getStringAttribute('value_selector');
  }
  public set valueSelector(value: string) {
    this._valueSelector = value;
  }
  public resetValueSelector() {
    this._valueSelector = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get valueSelectorInput() {
    return this._valueSelector;
  }

  // xhr - computed: true, optional: true, required: false
  private _xhr?: number; 
  public get xhr() {
    return this.getNumberAttribute('xhr');
  }
  public set xhr(value: number) {
    this._xhr = value;
  }
  public resetXhr() {
    this._xhr = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get xhrInput() {
    return this._xhr;
  }
}

/**
* Represents a {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor vigil_monitor}
*/
export class Monitor extends cdktf.TerraformResource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "vigil_monitor";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTF code for importing a Monitor resource upon running "cdktf plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the Monitor to import
  * @param importFromId The id of the existing Monitor that should be imported. Refer to the {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the Monitor to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktf.TerraformProvider) {
        return new cdktf.ImportableResource(scope, importToId, { terraformResourceType: "vigil_monitor", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/monitor vigil_monitor} Resource
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options MonitorConfig
  */
  public constructor(scope: Construct, id: string, config: MonitorConfig) {
    super(scope, id, {
      terraformResourceType: 'vigil_monitor',
      terraformGeneratorMetadata: {
        providerName: 'vigil',
        providerVersionConstraint: '~> 0.1'
      },
      provider: config.provider,
      dependsOn: config.dependsOn,
      count: config.count,
      lifecycle: config.lifecycle,
      provisioners: config.provisioners,
      connection: config.connection,
      forEach: config.forEach
    });
    this._attached.internalValue = config.attached;
    this._cronSchedule = config.cronSchedule;
    this._enabled = config.enabled;
    this._fullLog = config.fullLog;
    this._interval = config.interval;
    this._locations.internalValue = config.locations;
    this._name = config.name;
    this._onOverlimit = config.onOverlimit;
    this._openStat = config.openStat;
    this._recheck.internalValue = config.recheck;
    this._settings.internalValue = config.settings;
    this._slaTarget = config.slaTarget;
    this._tags = config.tags;
    this._type = config.type;
    this._url = config.url;
  }

  // ==========
  // ATTRIBUTES
  // ==========

  // attached - computed: false, optional: true, required: false
  private _attached = new MonitorAttachedOutputReference(this, "attached");
  public get attached() {
    return this._attached;
  }
  public putAttached(value: MonitorAttached) {
    this._attached.internalValue = value;
  }
  public resetAttached() {
    this._attached.internalValue = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get attachedInput() {
    return this._attached.internalValue;
  }

  // cert_not_before - computed: true, optional: false, required: false
  public get certNotBefore() {
    return this.getNumberAttribute('cert_not_before');
  }

  // created - computed: true, optional: false, required: false
  public get created() {
    return this.getNumberAttribute('created');
  }

  // cron_schedule - computed: false, optional: true, required: false
  private _cronSchedule?: string; 
  public get cronSchedule() {
    return this.getStringAttribute('cron_schedule');
  }
  public set cronSchedule(value: string) {
    this._cronSchedule = value;
  }
  public resetCronSchedule() {
    this._cronSchedule = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get cronScheduleInput() {
    return this._cronSchedule;
  }

  // effective_url - computed: true, optional: false, required: false
  public get effectiveUrl() {
    return this.getStringAttribute('effective_url');
  }

  // enabled - computed: true, optional: true, required: false
  private _enabled?: boolean | cdktf.IResolvable; 
  public get enabled() {
    return this.getBooleanAttribute('enabled');
  }
  public set enabled(value: boolean | cdktf.IResolvable) {
    this._enabled = value;
  }
  public resetEnabled() {
    this._enabled = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get enabledInput() {
    return this._enabled;
  }

  // expiration_date - computed: true, optional: false, required: false
  public get expirationDate() {
    return this.getNumberAttribute('expiration_date');
  }

  // full_log - computed: true, optional: true, required: false
  private _fullLog?: boolean | cdktf.IResolvable; 
  public get fullLog() {
    return this.getBooleanAttribute('full_log');
  }
  public set fullLog(value: boolean | cdktf.IResolvable) {
    this._fullLog = value;
  }
  public resetFullLog() {
    this._fullLog = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get fullLogInput() {
    return this._fullLog;
  }

  // id - computed: true, optional: false, required: false
  public get id() {
    return this.getStringAttribute('id');
  }

  // interval - computed: true, optional: true, required: false
  private _interval?: number; 
  public get interval() {
    return this.getNumberAttribute('interval');
  }
  public set interval(value: number) {
    this._interval = value;
  }
  public resetInterval() {
    this._interval = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get intervalInput() {
    return this._interval;
  }

  // locations - computed: true, optional: true, required: false
  private _locations = new MonitorLocationsOutputReference(this, "locations");
  public get locations() {
    return this._locations;
  }
  public putLocations(value: MonitorLocations) {
    this._locations.internalValue = value;
  }
  public resetLocations() {
    this._locations.internalValue = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get locationsInput() {
    return this._locations.internalValue;
  }

  // name - computed: true, optional: true, required: false
  private _name?: string; 
  public get name() {
    return this.getStringAttribute('name');
  }
  public set name(value: string) {
    this._name = value;
  }
  public resetName() {
    this._name = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get nameInput() {
    return this._name;
  }

  // on_overlimit - computed: false, optional: true, required: false
  private _onOverlimit?: string; 
  public get onOverlimit() {
    return this.getStringAttribute('on_overlimit');
  }
  public set onOverlimit(value: string) {
    this._onOverlimit = value;
  }
  public resetOnOverlimit() {
    this._onOverlimit = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get onOverlimitInput() {
    return this._onOverlimit;
  }

  // open_stat - computed: true, optional: true, required: false
  private _openStat?: boolean | cdktf.IResolvable; 
  public get openStat() {
    return this.getBooleanAttribute('open_stat');
  }
  public set openStat(value: boolean | cdktf.IResolvable) {
    this._openStat = value;
  }
  public resetOpenStat() {
    this._openStat = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get openStatInput() {
    return this._openStat;
  }

  // overlimited - computed: true, optional: false, required: false
  public get overlimited() {
    return this.getBooleanAttribute('overlimited');
  }

  // recheck - computed: true, optional: true, required: false
  private _recheck = new MonitorRecheckOutputReference(this, "recheck");
  public get recheck() {
    return this._recheck;
  }
  public putRecheck(value: MonitorRecheck) {
    this._recheck.internalValue = value;
  }
  public resetRecheck() {
    this._recheck.internalValue = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get recheckInput() {
    return this._recheck.internalValue;
  }

  // settings - computed: true, optional: true, required: false
  private _settings = new MonitorSettingsOutputReference(this, "settings");
  public get settings() {
    return this._settings;
  }
  public putSettings(value: MonitorSettings) {
    this._settings.internalValue = value;
  }
  public resetSettings() {
    this._settings.internalValue = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get settingsInput() {
    return this._settings.internalValue;
  }

  // since - computed: true, optional: false, required: false
  public get since() {
    return this.getNumberAttribute('since');
  }

  // sla_target - computed: false, optional: true, required: false
  private _slaTarget?: number; 
  public get slaTarget() {
    return this.getNumberAttribute('sla_target');
  }
  public set slaTarget(value: number) {
    this._slaTarget = value;
  }
  public resetSlaTarget() {
    this._slaTarget = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get slaTargetInput() {
    return this._slaTarget;
  }

  // state - computed: true, optional: false, required: false
  public get state() {
    return this.getStringAttribute('state');
  }

  // tags - computed: true, optional: true, required: false
  private _tags?: string[]; 
  public get tags() {
    return cdktf.Fn.tolist(this.getListAttribute('tags'));
  }
  public set tags(value: string[]) {
    this._tags = value;
  }
  public resetTags() {
    this._tags = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get tagsInput() {
    return this._tags;
  }

  // type - computed: false, optional: false, required: true
  private _type?: string; 
  public get type() {
    return this.getStringAttribute('type');
  }
  public set type(value: string) {
    this._type = value;
  }
  // Temporarily expose input value. Use with caution.
  public get typeInput() {
    return this._type;
  }

  // updated - computed: true, optional: false, required: false
  public get updated() {
    return this.getNumberAttribute('updated');
  }

  // url - computed: false, optional: true, required: false
  private _url?: string; 
  public get url() {
    return this.getStringAttribute('url');
  }
  public set url(value: string) {
    this._url = value;
  }
  public resetUrl() {
    this._url = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get urlInput() {
    return this._url;
  }

  // =========
  // SYNTHESIS
  // =========

  protected override synthesizeAttributes(): { [name: string]: any } {
    return {
      attached: monitorAttachedToTerraform(this._attached.internalValue),
      cron_schedule: cdktf.stringToTerraform(this._cronSchedule),
      enabled: cdktf.booleanToTerraform(this._enabled),
      full_log: cdktf.booleanToTerraform(this._fullLog),
      interval: cdktf.numberToTerraform(this._interval),
      locations: monitorLocationsToTerraform(this._locations.internalValue),
      name: cdktf.stringToTerraform(this._name),
      on_overlimit: cdktf.stringToTerraform(this._onOverlimit),
      open_stat: cdktf.booleanToTerraform(this._openStat),
      recheck: monitorRecheckToTerraform(this._recheck.internalValue),
      settings: monitorSettingsToTerraform(this._settings.internalValue),
      sla_target: cdktf.numberToTerraform(this._slaTarget),
      tags: cdktf.listMapper(cdktf.stringToTerraform, false)(this._tags),
      type: cdktf.stringToTerraform(this._type),
      url: cdktf.stringToTerraform(this._url),
    };
  }

  protected override synthesizeHclAttributes(): { [name: string]: any } {
    const attrs = {
      attached: {
        value: monitorAttachedToHclTerraform(this._attached.internalValue),
        isBlock: false,
        type: "list",
        storageClassType: "MonitorAttached",
      },
      cron_schedule: {
        value: cdktf.stringToHclTerraform(this._cronSchedule),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      enabled: {
        value: cdktf.booleanToHclTerraform(this._enabled),
        isBlock: false,
        type: "simple",
        storageClassType: "boolean",
      },
      full_log: {
        value: cdktf.booleanToHclTerraform(this._fullLog),
        isBlock: false,
        type: "simple",
        storageClassType: "boolean",
      },
      interval: {
        value: cdktf.numberToHclTerraform(this._interval),
        isBlock: false,
        type: "simple",
        storageClassType: "number",
      },
      locations: {
        value: monitorLocationsToHclTerraform(this._locations.internalValue),
        isBlock: false,
        type: "list",
        storageClassType: "MonitorLocations",
      },
      name: {
        value: cdktf.stringToHclTerraform(this._name),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      on_overlimit: {
        value: cdktf.stringToHclTerraform(this._onOverlimit),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      open_stat: {
        value: cdktf.booleanToHclTerraform(this._openStat),
        isBlock: false,
        type: "simple",
        storageClassType: "boolean",
      },
      recheck: {
        value: monitorRecheckToHclTerraform(this._recheck.internalValue),
        isBlock: false,
        type: "list",
        storageClassType: "MonitorRecheck",
      },
      settings: {
        value: monitorSettingsToHclTerraform(this._settings.internalValue),
        isBlock: false,
        type: "list",
        storageClassType: "MonitorSettings",
      },
      sla_target: {
        value: cdktf.numberToHclTerraform(this._slaTarget),
        isBlock: false,
        type: "simple",
        storageClassType: "number",
      },
      tags: {
        value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(this._tags),
        isBlock: false,
        type: "set",
        storageClassType: "stringList",
      },
      type: {
        value: cdktf.stringToHclTerraform(this._type),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      url: {
        value: cdktf.stringToHclTerraform(this._url),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
    };

    // remove undefined attributes
    return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined ))
  }
}
