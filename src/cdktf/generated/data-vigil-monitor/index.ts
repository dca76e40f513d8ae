// Generated from provider.json by @cdktf/provider-generator 0.21.0 and tools/cdktf/generate.ts (npm run generate). Do not edit.
// https://registry.terraform.io/providers/vigil/vigil/latest/docs/data-sources/monitor
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktf from 'cdktf';

// Configuration

export interface DataVigilMonitorConfig extends cdktf.TerraformMetaArguments {
  /**
  * Opaque identifier. Look the monitor up by id, or by url and type.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/data-sources/monitor#id DataVigilMonitor#id}
  *
  * Please be aware that the id field is automatically added to all resources in Terraform providers using a Terraform provider SDK version below 2.
  * If you experience problems setting this value it might not be settable. Please take a look at the provider documentation to ensure it should be settable.
  */
  readonly id?: string;
  /**
  * Monitor type; cannot change (422 type_immutable). One of: "http", "api", "waterfall", "cntCheck", "tran", "ping", "port", "dnsbl", "domainExp", "sslExp", "webRisk", "counter", "database", "snmp", "pageSpeed". Changing it replaces the resource.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/data-sources/monitor#type DataVigilMonitor#type}
  */
  readonly type?: string;
  /**
  * Target; its form depends on the type.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/data-sources/monitor#url DataVigilMonitor#url}
  */
  readonly url?: string;
}
export interface DataVigilMonitorLocations {
}

export function dataVigilMonitorLocationsToTerraform(struct?: DataVigilMonitorLocations): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
  }
}


export function dataVigilMonitorLocationsToHclTerraform(struct?: DataVigilMonitorLocations): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
  };
  return attrs;
}

export class DataVigilMonitorLocationsOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): DataVigilMonitorLocations | undefined {
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: DataVigilMonitorLocations | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
    }
  }

  // excluded_agents - computed: true, optional: false, required: false
  public get excludedAgents() {
    return cdktf.Fn.tolist(this.getListAttribute('excluded_agents'));
  }

  // fallback - computed: true, optional: false, required: false
  public get fallback() {
    return this.getStringAttribute('fallback');
  }

  // pools - computed: true, optional: false, required: false
  public get pools() {
    return cdktf.Fn.tolist(this.getListAttribute('pools'));
  }
}
export interface DataVigilMonitorRecheck {
}

export function dataVigilMonitorRecheckToTerraform(struct?: DataVigilMonitorRecheck): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
  }
}


export function dataVigilMonitorRecheckToHclTerraform(struct?: DataVigilMonitorRecheck): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
  };
  return attrs;
}

export class DataVigilMonitorRecheckOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): DataVigilMonitorRecheck | undefined {
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: DataVigilMonitorRecheck | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
    }
  }

  // min_num_down - computed: true, optional: false, required: false
  public get minNumDown() {
    return this.getNumberAttribute('min_num_down');
  }

  // strategy - computed: true, optional: false, required: false
  public get strategy() {
    return this.getStringAttribute('strategy');
  }
}
export interface DataVigilMonitorSettingsAsserts {
}

export function dataVigilMonitorSettingsAssertsToTerraform(struct?: DataVigilMonitorSettingsAsserts): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
  }
}


export function dataVigilMonitorSettingsAssertsToHclTerraform(struct?: DataVigilMonitorSettingsAsserts): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
  };
  return attrs;
}

export class DataVigilMonitorSettingsAssertsOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  * @param complexObjectIndex the index of this item in the list
  * @param complexObjectIsFromSet whether the list is wrapping a set (will add tolist() to be able to access an item via an index)
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string, complexObjectIndex: number, complexObjectIsFromSet: boolean) {
    super(terraformResource, terraformAttribute, complexObjectIsFromSet, complexObjectIndex);
  }

  public get internalValue(): DataVigilMonitorSettingsAsserts | undefined {
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: DataVigilMonitorSettingsAsserts | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
    }
  }

  // comparison - computed: true, optional: false, required: false
  public get comparison() {
    return this.getStringAttribute('comparison');
  }

  // property - computed: true, optional: false, required: false
  public get property() {
    return this.getStringAttribute('property');
  }

  // source - computed: true, optional: false, required: false
  public get source() {
    return this.getStringAttribute('source');
  }

  // target - computed: true, optional: false, required: false
  public get target() {
    return this.getStringAttribute('target');
  }
}

export class DataVigilMonitorSettingsAssertsList extends cdktf.ComplexList {

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
  public get(index: number): DataVigilMonitorSettingsAssertsOutputReference {
    return new DataVigilMonitorSettingsAssertsOutputReference(this.terraformResource, this.terraformAttribute, index, this.wrapsSet);
  }
}
export interface DataVigilMonitorSettingsAttachedDnsbl {
}

export function dataVigilMonitorSettingsAttachedDnsblToTerraform(struct?: DataVigilMonitorSettingsAttachedDnsbl): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
  }
}


export function dataVigilMonitorSettingsAttachedDnsblToHclTerraform(struct?: DataVigilMonitorSettingsAttachedDnsbl): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
  };
  return attrs;
}

export class DataVigilMonitorSettingsAttachedDnsblOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): DataVigilMonitorSettingsAttachedDnsbl | undefined {
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: DataVigilMonitorSettingsAttachedDnsbl | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
    }
  }

  // enabled - computed: true, optional: false, required: false
  public get enabled() {
    return this.getBooleanAttribute('enabled');
  }
}
export interface DataVigilMonitorSettingsAttachedDomainExp {
}

export function dataVigilMonitorSettingsAttachedDomainExpToTerraform(struct?: DataVigilMonitorSettingsAttachedDomainExp): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
  }
}


export function dataVigilMonitorSettingsAttachedDomainExpToHclTerraform(struct?: DataVigilMonitorSettingsAttachedDomainExp): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
  };
  return attrs;
}

export class DataVigilMonitorSettingsAttachedDomainExpOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): DataVigilMonitorSettingsAttachedDomainExp | undefined {
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: DataVigilMonitorSettingsAttachedDomainExp | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
    }
  }

  // enabled - computed: true, optional: false, required: false
  public get enabled() {
    return this.getBooleanAttribute('enabled');
  }
}
export interface DataVigilMonitorSettingsAttachedSslExp {
}

export function dataVigilMonitorSettingsAttachedSslExpToTerraform(struct?: DataVigilMonitorSettingsAttachedSslExp): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
  }
}


export function dataVigilMonitorSettingsAttachedSslExpToHclTerraform(struct?: DataVigilMonitorSettingsAttachedSslExp): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
  };
  return attrs;
}

export class DataVigilMonitorSettingsAttachedSslExpOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): DataVigilMonitorSettingsAttachedSslExp | undefined {
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: DataVigilMonitorSettingsAttachedSslExp | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
    }
  }

  // enabled - computed: true, optional: false, required: false
  public get enabled() {
    return this.getBooleanAttribute('enabled');
  }
}
export interface DataVigilMonitorSettingsAttachedWebRisk {
}

export function dataVigilMonitorSettingsAttachedWebRiskToTerraform(struct?: DataVigilMonitorSettingsAttachedWebRisk): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
  }
}


export function dataVigilMonitorSettingsAttachedWebRiskToHclTerraform(struct?: DataVigilMonitorSettingsAttachedWebRisk): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
  };
  return attrs;
}

export class DataVigilMonitorSettingsAttachedWebRiskOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): DataVigilMonitorSettingsAttachedWebRisk | undefined {
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: DataVigilMonitorSettingsAttachedWebRisk | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
    }
  }

  // enabled - computed: true, optional: false, required: false
  public get enabled() {
    return this.getBooleanAttribute('enabled');
  }
}
export interface DataVigilMonitorSettingsAttached {
}

export function dataVigilMonitorSettingsAttachedToTerraform(struct?: DataVigilMonitorSettingsAttached): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
  }
}


export function dataVigilMonitorSettingsAttachedToHclTerraform(struct?: DataVigilMonitorSettingsAttached): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
  };
  return attrs;
}

export class DataVigilMonitorSettingsAttachedOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): DataVigilMonitorSettingsAttached | undefined {
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: DataVigilMonitorSettingsAttached | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
    }
  }

  // dnsbl - computed: true, optional: false, required: false
  private _dnsbl = new DataVigilMonitorSettingsAttachedDnsblOutputReference(this, "dnsbl");
  public get dnsbl() {
    return this._dnsbl;
  }

  // domain_exp - computed: true, optional: false, required: false
  private _domainExp = new DataVigilMonitorSettingsAttachedDomainExpOutputReference(this, "domain_exp");
  public get domainExp() {
    return this._domainExp;
  }

  // ssl_exp - computed: true, optional: false, required: false
  private _sslExp = new DataVigilMonitorSettingsAttachedSslExpOutputReference(this, "ssl_exp");
  public get sslExp() {
    return this._sslExp;
  }

  // web_risk - computed: true, optional: false, required: false
  private _webRisk = new DataVigilMonitorSettingsAttachedWebRiskOutputReference(this, "web_risk");
  public get webRisk() {
    return this._webRisk;
  }
}
export interface DataVigilMonitorSettingsExpectation {
}

export function dataVigilMonitorSettingsExpectationToTerraform(struct?: DataVigilMonitorSettingsExpectation): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
  }
}


export function dataVigilMonitorSettingsExpectationToHclTerraform(struct?: DataVigilMonitorSettingsExpectation): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
  };
  return attrs;
}

export class DataVigilMonitorSettingsExpectationOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): DataVigilMonitorSettingsExpectation | undefined {
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: DataVigilMonitorSettingsExpectation | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
    }
  }

  // args - computed: true, optional: false, required: false
  public get args() {
    return this.getListAttribute('args');
  }

  // change - computed: true, optional: false, required: false
  public get change() {
    return this.getNumberAttribute('change');
  }

  // cpt - computed: true, optional: false, required: false
  public get cpt() {
    return this.getStringAttribute('cpt');
  }

  // func - computed: true, optional: false, required: false
  public get func() {
    return this.getStringAttribute('func');
  }
}
export interface DataVigilMonitorSettingsHeaders {
}

export function dataVigilMonitorSettingsHeadersToTerraform(struct?: DataVigilMonitorSettingsHeaders): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
  }
}


export function dataVigilMonitorSettingsHeadersToHclTerraform(struct?: DataVigilMonitorSettingsHeaders): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
  };
  return attrs;
}

export class DataVigilMonitorSettingsHeadersOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  * @param complexObjectIndex the index of this item in the list
  * @param complexObjectIsFromSet whether the list is wrapping a set (will add tolist() to be able to access an item via an index)
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string, complexObjectIndex: number, complexObjectIsFromSet: boolean) {
    super(terraformResource, terraformAttribute, complexObjectIsFromSet, complexObjectIndex);
  }

  public get internalValue(): DataVigilMonitorSettingsHeaders | undefined {
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: DataVigilMonitorSettingsHeaders | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
    }
  }

  // name - computed: true, optional: false, required: false
  public get name() {
    return this.getStringAttribute('name');
  }

  // value - computed: true, optional: false, required: false
  public get value() {
    return this.getStringAttribute('value');
  }
}

export class DataVigilMonitorSettingsHeadersList extends cdktf.ComplexList {

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
  public get(index: number): DataVigilMonitorSettingsHeadersOutputReference {
    return new DataVigilMonitorSettingsHeadersOutputReference(this.terraformResource, this.terraformAttribute, index, this.wrapsSet);
  }
}
export interface DataVigilMonitorSettingsSteps {
}

export function dataVigilMonitorSettingsStepsToTerraform(struct?: DataVigilMonitorSettingsSteps): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
  }
}


export function dataVigilMonitorSettingsStepsToHclTerraform(struct?: DataVigilMonitorSettingsSteps): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
  };
  return attrs;
}

export class DataVigilMonitorSettingsStepsOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  * @param complexObjectIndex the index of this item in the list
  * @param complexObjectIsFromSet whether the list is wrapping a set (will add tolist() to be able to access an item via an index)
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string, complexObjectIndex: number, complexObjectIsFromSet: boolean) {
    super(terraformResource, terraformAttribute, complexObjectIsFromSet, complexObjectIndex);
  }

  public get internalValue(): DataVigilMonitorSettingsSteps | undefined {
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: DataVigilMonitorSettingsSteps | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
    }
  }

  // action - computed: true, optional: false, required: false
  public get action() {
    return this.getStringAttribute('action');
  }

  // keywords - computed: true, optional: false, required: false
  public get keywords() {
    return this.getListAttribute('keywords');
  }

  // selector - computed: true, optional: false, required: false
  public get selector() {
    return this.getStringAttribute('selector');
  }

  // synthesized - computed: true, optional: false, required: false
  public get synthesized() {
    return this.getBooleanAttribute('synthesized');
  }

  // url - computed: true, optional: false, required: false
  public get url() {
    return this.getStringAttribute('url');
  }

  // value - computed: true, optional: false, required: false
  public get value() {
    return this.getStringAttribute('value');
  }

  // wait_ms - computed: true, optional: false, required: false
  public get waitMs() {
    return this.getNumberAttribute('wait_ms');
  }
}

export class DataVigilMonitorSettingsStepsList extends cdktf.ComplexList {

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
  public get(index: number): DataVigilMonitorSettingsStepsOutputReference {
    return new DataVigilMonitorSettingsStepsOutputReference(this.terraformResource, this.terraformAttribute, index, this.wrapsSet);
  }
}
export interface DataVigilMonitorSettings {
}

export function dataVigilMonitorSettingsToTerraform(struct?: DataVigilMonitorSettings): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
  }
}


export function dataVigilMonitorSettingsToHclTerraform(struct?: DataVigilMonitorSettings): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
  };
  return attrs;
}

export class DataVigilMonitorSettingsOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): DataVigilMonitorSettings | undefined {
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: DataVigilMonitorSettings | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
    }
  }

  // accept - computed: true, optional: false, required: false
  public get accept() {
    return this.getStringAttribute('accept');
  }

  // assert_mode - computed: true, optional: false, required: false
  public get assertMode() {
    return this.getBooleanAttribute('assert_mode');
  }

  // asserts - computed: true, optional: false, required: false
  private _asserts = new DataVigilMonitorSettingsAssertsList(this, "asserts", false);
  public get asserts() {
    return this._asserts;
  }

  // attached - computed: true, optional: false, required: false
  private _attached = new DataVigilMonitorSettingsAttachedOutputReference(this, "attached");
  public get attached() {
    return this._attached;
  }

  // auth_key - computed: true, optional: false, required: false
  public get authKey() {
    return this.getStringAttribute('auth_key');
  }

  // auth_schema - computed: true, optional: false, required: false
  public get authSchema() {
    return this.getStringAttribute('auth_schema');
  }

  // block_weak_ciphers - computed: true, optional: false, required: false
  public get blockWeakCiphers() {
    return this.getBooleanAttribute('block_weak_ciphers');
  }

  // body - computed: true, optional: false, required: false
  public get body() {
    return this.getStringAttribute('body');
  }

  // case_sensitive - computed: true, optional: false, required: false
  public get caseSensitive() {
    return this.getBooleanAttribute('case_sensitive');
  }

  // cert_watch_days - computed: true, optional: false, required: false
  public get certWatchDays() {
    return cdktf.Token.asNumberList(cdktf.Fn.tolist(this.getNumberListAttribute('cert_watch_days')));
  }

  // check_revocation - computed: true, optional: false, required: false
  public get checkRevocation() {
    return this.getBooleanAttribute('check_revocation');
  }

  // community - computed: true, optional: false, required: false
  public get community() {
    return this.getStringAttribute('community');
  }

  // connection_string - computed: true, optional: false, required: false
  public get connectionString() {
    return this.getStringAttribute('connection_string');
  }

  // console_error - computed: true, optional: false, required: false
  public get consoleError() {
    return this.getBooleanAttribute('console_error');
  }

  // content_type - computed: true, optional: false, required: false
  public get contentType() {
    return this.getStringAttribute('content_type');
  }

  // device_emulation - computed: true, optional: false, required: false
  public get deviceEmulation() {
    return this.getStringAttribute('device_emulation');
  }

  // dns - computed: true, optional: false, required: false
  public get dns() {
    return cdktf.Fn.tolist(this.getListAttribute('dns'));
  }

  // dns_no_cache - computed: true, optional: false, required: false
  public get dnsNoCache() {
    return this.getBooleanAttribute('dns_no_cache');
  }

  // error_on_redirect - computed: true, optional: false, required: false
  public get errorOnRedirect() {
    return this.getBooleanAttribute('error_on_redirect');
  }

  // error_statuses - computed: true, optional: false, required: false
  public get errorStatuses() {
    return cdktf.Token.asNumberList(cdktf.Fn.tolist(this.getNumberListAttribute('error_statuses')));
  }

  // expectation - computed: true, optional: false, required: false
  private _expectation = new DataVigilMonitorSettingsExpectationOutputReference(this, "expectation");
  public get expectation() {
    return this._expectation;
  }

  // expected_console_errors - computed: true, optional: false, required: false
  public get expectedConsoleErrors() {
    return this.getListAttribute('expected_console_errors');
  }

  // expected_dns - computed: true, optional: false, required: false
  public get expectedDns() {
    return cdktf.Fn.tolist(this.getListAttribute('expected_dns'));
  }

  // expected_ips - computed: true, optional: false, required: false
  public get expectedIps() {
    return cdktf.Fn.tolist(this.getListAttribute('expected_ips'));
  }

  // final_screenshot - computed: true, optional: false, required: false
  public get finalScreenshot() {
    return this.getBooleanAttribute('final_screenshot');
  }

  // follow_redirect - computed: true, optional: false, required: false
  public get followRedirect() {
    return this.getBooleanAttribute('follow_redirect');
  }

  // headers - computed: true, optional: false, required: false
  private _headers = new DataVigilMonitorSettingsHeadersList(this, "headers", false);
  public get headers() {
    return this._headers;
  }

  // ignored_statuses - computed: true, optional: false, required: false
  public get ignoredStatuses() {
    return cdktf.Token.asNumberList(cdktf.Fn.tolist(this.getNumberListAttribute('ignored_statuses')));
  }

  // keyword - computed: true, optional: false, required: false
  public get keyword() {
    return this.getStringAttribute('keyword');
  }

  // keyword_any - computed: true, optional: false, required: false
  public get keywordAny() {
    return this.getBooleanAttribute('keyword_any');
  }

  // keyword_mode - computed: true, optional: false, required: false
  public get keywordMode() {
    return this.getStringAttribute('keyword_mode');
  }

  // keyword_present - computed: true, optional: false, required: false
  public get keywordPresent() {
    return this.getBooleanAttribute('keyword_present');
  }

  // keywords - computed: true, optional: false, required: false
  public get keywords() {
    return this.getStringAttribute('keywords');
  }

  // max_redirects - computed: true, optional: false, required: false
  public get maxRedirects() {
    return this.getNumberAttribute('max_redirects');
  }

  // max_size - computed: true, optional: false, required: false
  public get maxSize() {
    return this.getNumberAttribute('max_size');
  }

  // method - computed: true, optional: false, required: false
  public get method() {
    return this.getStringAttribute('method');
  }

  // on_ajax - computed: true, optional: false, required: false
  public get onAjax() {
    return this.getNumberAttribute('on_ajax');
  }

  // on_console_error - computed: true, optional: false, required: false
  public get onConsoleError() {
    return this.getNumberAttribute('on_console_error');
  }

  // on_console_warning - computed: true, optional: false, required: false
  public get onConsoleWarning() {
    return this.getNumberAttribute('on_console_warning');
  }

  // on_cpu - computed: true, optional: false, required: false
  public get onCpu() {
    return this.getNumberAttribute('on_cpu');
  }

  // on_document - computed: true, optional: false, required: false
  public get onDocument() {
    return this.getNumberAttribute('on_document');
  }

  // on_font - computed: true, optional: false, required: false
  public get onFont() {
    return this.getNumberAttribute('on_font');
  }

  // on_image - computed: true, optional: false, required: false
  public get onImage() {
    return this.getNumberAttribute('on_image');
  }

  // on_ram - computed: true, optional: false, required: false
  public get onRam() {
    return this.getNumberAttribute('on_ram');
  }

  // on_script - computed: true, optional: false, required: false
  public get onScript() {
    return this.getNumberAttribute('on_script');
  }

  // on_stylesheet - computed: true, optional: false, required: false
  public get onStylesheet() {
    return this.getNumberAttribute('on_stylesheet');
  }

  // only_visible - computed: true, optional: false, required: false
  public get onlyVisible() {
    return this.getBooleanAttribute('only_visible');
  }

  // password - computed: true, optional: false, required: false
  public get password() {
    return this.getStringAttribute('password');
  }

  // pattern - computed: true, optional: false, required: false
  public get pattern() {
    return this.getStringAttribute('pattern');
  }

  // post_parameters - computed: true, optional: false, required: false
  public get postParameters() {
    return this.getStringAttribute('post_parameters');
  }

  // preset - computed: true, optional: false, required: false
  public get preset() {
    return this.getStringAttribute('preset');
  }

  // priv_key - computed: true, optional: false, required: false
  public get privKey() {
    return this.getStringAttribute('priv_key');
  }

  // probe_url - computed: true, optional: false, required: false
  public get probeUrl() {
    return this.getStringAttribute('probe_url');
  }

  // public_dns - computed: true, optional: false, required: false
  public get publicDns() {
    return this.getNumberAttribute('public_dns');
  }

  // referer - computed: true, optional: false, required: false
  public get referer() {
    return this.getStringAttribute('referer');
  }

  // require_strong_tls - computed: true, optional: false, required: false
  public get requireStrongTls() {
    return this.getBooleanAttribute('require_strong_tls');
  }

  // require_valid_chain - computed: true, optional: false, required: false
  public get requireValidChain() {
    return this.getBooleanAttribute('require_valid_chain');
  }

  // skip_media - computed: true, optional: false, required: false
  public get skipMedia() {
    return this.getBooleanAttribute('skip_media');
  }

  // ssl - computed: true, optional: false, required: false
  public get ssl() {
    return this.getBooleanAttribute('ssl');
  }

  // steps - computed: true, optional: false, required: false
  private _steps = new DataVigilMonitorSettingsStepsList(this, "steps", false);
  public get steps() {
    return this._steps;
  }

  // timeout - computed: true, optional: false, required: false
  public get timeout() {
    return this.getNumberAttribute('timeout');
  }

  // total_count - computed: true, optional: false, required: false
  public get totalCount() {
    return this.getNumberAttribute('total_count');
  }

  // user_agent - computed: true, optional: false, required: false
  public get userAgent() {
    return this.getStringAttribute('user_agent');
  }

  // username - computed: true, optional: false, required: false
  public get username() {
    return this.getStringAttribute('username');
  }

  // value_selector - computed: true, optional: false, required: false
  public get valueSelector() {
    return this.getStringAttribute('value_selector');
  }

  // xhr - computed: true, optional: false, required: false
  public get xhr() {
    return this.getNumberAttribute('xhr');
  }
}

/**
* Represents a {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/data-sources/monitor vigil_monitor}
*/
export class DataVigilMonitor extends cdktf.TerraformDataSource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "vigil_monitor";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTF code for importing a DataVigilMonitor resource upon running "cdktf plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the DataVigilMonitor to import
  * @param importFromId The id of the existing DataVigilMonitor that should be imported. Refer to the {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/data-sources/monitor#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the DataVigilMonitor to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktf.TerraformProvider) {
        return new cdktf.ImportableResource(scope, importToId, { terraformResourceType: "vigil_monitor", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/data-sources/monitor vigil_monitor} Data Source
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options DataVigilMonitorConfig = {}
  */
  public constructor(scope: Construct, id: string, config: DataVigilMonitorConfig = {}) {
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
    this._id = config.id;
    this._type = config.type;
    this._url = config.url;
  }

  // ==========
  // ATTRIBUTES
  // ==========

  // cert_not_before - computed: true, optional: false, required: false
  public get certNotBefore() {
    return this.getNumberAttribute('cert_not_before');
  }

  // created - computed: true, optional: false, required: false
  public get created() {
    return this.getNumberAttribute('created');
  }

  // cron_schedule - computed: true, optional: false, required: false
  public get cronSchedule() {
    return this.getStringAttribute('cron_schedule');
  }

  // effective_url - computed: true, optional: false, required: false
  public get effectiveUrl() {
    return this.getStringAttribute('effective_url');
  }

  // enabled - computed: true, optional: false, required: false
  public get enabled() {
    return this.getBooleanAttribute('enabled');
  }

  // expiration_date - computed: true, optional: false, required: false
  public get expirationDate() {
    return this.getNumberAttribute('expiration_date');
  }

  // full_log - computed: true, optional: false, required: false
  public get fullLog() {
    return this.getBooleanAttribute('full_log');
  }

  // id - computed: true, optional: true, required: false
  private _id?: string; 
  public get id() {
    return this.getStringAttribute('id');
  }
  public set id(value: string) {
    this._id = value;
  }
  public resetId() {
    this._id = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get idInput() {
    return this._id;
  }

  // interval - computed: true, optional: false, required: false
  public get interval() {
    return this.getNumberAttribute('interval');
  }

  // locations - computed: true, optional: false, required: false
  private _locations = new DataVigilMonitorLocationsOutputReference(this, "locations");
  public get locations() {
    return this._locations;
  }

  // name - computed: true, optional: false, required: false
  public get name() {
    return this.getStringAttribute('name');
  }

  // open_stat - computed: true, optional: false, required: false
  public get openStat() {
    return this.getBooleanAttribute('open_stat');
  }

  // overlimited - computed: true, optional: false, required: false
  public get overlimited() {
    return this.getBooleanAttribute('overlimited');
  }

  // recheck - computed: true, optional: false, required: false
  private _recheck = new DataVigilMonitorRecheckOutputReference(this, "recheck");
  public get recheck() {
    return this._recheck;
  }

  // settings - computed: true, optional: false, required: false
  private _settings = new DataVigilMonitorSettingsOutputReference(this, "settings");
  public get settings() {
    return this._settings;
  }

  // since - computed: true, optional: false, required: false
  public get since() {
    return this.getNumberAttribute('since');
  }

  // sla_target - computed: true, optional: false, required: false
  public get slaTarget() {
    return this.getNumberAttribute('sla_target');
  }

  // state - computed: true, optional: false, required: false
  public get state() {
    return this.getStringAttribute('state');
  }

  // tags - computed: true, optional: false, required: false
  public get tags() {
    return cdktf.Fn.tolist(this.getListAttribute('tags'));
  }

  // type - computed: true, optional: true, required: false
  private _type?: string; 
  public get type() {
    return this.getStringAttribute('type');
  }
  public set type(value: string) {
    this._type = value;
  }
  public resetType() {
    this._type = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get typeInput() {
    return this._type;
  }

  // updated - computed: true, optional: false, required: false
  public get updated() {
    return this.getNumberAttribute('updated');
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

  // =========
  // SYNTHESIS
  // =========

  protected override synthesizeAttributes(): { [name: string]: any } {
    return {
      id: cdktf.stringToTerraform(this._id),
      type: cdktf.stringToTerraform(this._type),
      url: cdktf.stringToTerraform(this._url),
    };
  }

  protected override synthesizeHclAttributes(): { [name: string]: any } {
    const attrs = {
      id: {
        value: cdktf.stringToHclTerraform(this._id),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
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
