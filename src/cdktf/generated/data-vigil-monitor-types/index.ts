// Generated from provider.json by @cdktf/provider-generator 0.21.0 and tools/cdktf/generate.ts (npm run generate). Do not edit.
// https://registry.terraform.io/providers/vigil/vigil/latest/docs/data-sources/monitor_types
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktf from 'cdktf';

// Configuration

export interface DataVigilMonitorTypesConfig extends cdktf.TerraformMetaArguments {
}
export interface DataVigilMonitorTypesTypesAccountLimits {
}

export function dataVigilMonitorTypesTypesAccountLimitsToTerraform(struct?: DataVigilMonitorTypesTypesAccountLimits): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
  }
}


export function dataVigilMonitorTypesTypesAccountLimitsToHclTerraform(struct?: DataVigilMonitorTypesTypesAccountLimits): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
  };
  return attrs;
}

export class DataVigilMonitorTypesTypesAccountLimitsOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): DataVigilMonitorTypesTypesAccountLimits | undefined {
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: DataVigilMonitorTypesTypesAccountLimits | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
    }
  }

  // available - computed: true, optional: false, required: false
  public get available() {
    return this.getBooleanAttribute('available');
  }

  // cron - computed: true, optional: false, required: false
  public get cron() {
    return this.getBooleanAttribute('cron');
  }

  // min_interval - computed: true, optional: false, required: false
  public get minInterval() {
    return this.getNumberAttribute('min_interval');
  }
}
export interface DataVigilMonitorTypesTypes {
}

export function dataVigilMonitorTypesTypesToTerraform(struct?: DataVigilMonitorTypesTypes): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
  }
}


export function dataVigilMonitorTypesTypesToHclTerraform(struct?: DataVigilMonitorTypesTypes): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
  };
  return attrs;
}

export class DataVigilMonitorTypesTypesOutputReference extends cdktf.ComplexObject {
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

  public get internalValue(): DataVigilMonitorTypesTypes | undefined {
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: DataVigilMonitorTypesTypes | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
    }
  }

  // account_limits - computed: true, optional: false, required: false
  private _accountLimits = new DataVigilMonitorTypesTypesAccountLimitsOutputReference(this, "account_limits");
  public get accountLimits() {
    return this._accountLimits;
  }

  // aliases - computed: true, optional: false, required: false
  public get aliases() {
    return this.getListAttribute('aliases');
  }

  // attached - computed: true, optional: false, required: false
  public get attached() {
    return this.getListAttribute('attached');
  }

  // cron - computed: true, optional: false, required: false
  public get cron() {
    return this.getBooleanAttribute('cron');
  }

  // discontinued - computed: true, optional: false, required: false
  public get discontinued() {
    return this.getBooleanAttribute('discontinued');
  }

  // feature - computed: true, optional: false, required: false
  public get feature() {
    return this.getStringAttribute('feature');
  }

  // fixed_interval - computed: true, optional: false, required: false
  public get fixedInterval() {
    return this.getNumberAttribute('fixed_interval');
  }

  // fleet - computed: true, optional: false, required: false
  public get fleet() {
    return this.getStringAttribute('fleet');
  }

  // label - computed: true, optional: false, required: false
  public get label() {
    return this.getStringAttribute('label');
  }

  // locations - computed: true, optional: false, required: false
  public get locations() {
    return this.getStringAttribute('locations');
  }

  // min_interval - computed: true, optional: false, required: false
  public get minInterval() {
    return this.getNumberAttribute('min_interval');
  }

  // recheck - computed: true, optional: false, required: false
  public get recheck() {
    return this.getBooleanAttribute('recheck');
  }

  // replaced_by - computed: true, optional: false, required: false
  public get replacedBy() {
    return this.getStringAttribute('replaced_by');
  }

  // requires_pool - computed: true, optional: false, required: false
  public get requiresPool() {
    return this.getBooleanAttribute('requires_pool');
  }

  // type - computed: true, optional: false, required: false
  public get type() {
    return this.getStringAttribute('type');
  }

  // url - computed: true, optional: false, required: false
  public get url() {
    return this.getStringAttribute('url');
  }
}

export class DataVigilMonitorTypesTypesList extends cdktf.ComplexList {

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
  public get(index: number): DataVigilMonitorTypesTypesOutputReference {
    return new DataVigilMonitorTypesTypesOutputReference(this.terraformResource, this.terraformAttribute, index, this.wrapsSet);
  }
}

/**
* Represents a {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/data-sources/monitor_types vigil_monitor_types}
*/
export class DataVigilMonitorTypes extends cdktf.TerraformDataSource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "vigil_monitor_types";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTF code for importing a DataVigilMonitorTypes resource upon running "cdktf plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the DataVigilMonitorTypes to import
  * @param importFromId The id of the existing DataVigilMonitorTypes that should be imported. Refer to the {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/data-sources/monitor_types#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the DataVigilMonitorTypes to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktf.TerraformProvider) {
        return new cdktf.ImportableResource(scope, importToId, { terraformResourceType: "vigil_monitor_types", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/data-sources/monitor_types vigil_monitor_types} Data Source
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options DataVigilMonitorTypesConfig = {}
  */
  public constructor(scope: Construct, id: string, config: DataVigilMonitorTypesConfig = {}) {
    super(scope, id, {
      terraformResourceType: 'vigil_monitor_types',
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
  }

  // ==========
  // ATTRIBUTES
  // ==========

  // types - computed: true, optional: false, required: false
  private _types = new DataVigilMonitorTypesTypesList(this, "types", false);
  public get types() {
    return this._types;
  }

  // =========
  // SYNTHESIS
  // =========

  protected override synthesizeAttributes(): { [name: string]: any } {
    return {
    };
  }

  protected override synthesizeHclAttributes(): { [name: string]: any } {
    const attrs = {
    };
    return attrs;
  }
}
