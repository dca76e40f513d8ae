// Generated from provider.json by @cdktf/provider-generator 0.21.0 and tools/cdktf/generate.ts (npm run generate). Do not edit.
// https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/maintenance
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktf from 'cdktf';

// Configuration

export interface MaintenanceConfig extends cdktf.TerraformMetaArguments {
  /**
  * Keep the time out of statistics. Default: true.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/maintenance#exclude_from_stats Maintenance#exclude_from_stats}
  */
  readonly excludeFromStats?: boolean | cdktf.IResolvable;
  /**
  * Start, Unix seconds.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/maintenance#from Maintenance#from}
  */
  readonly from: number;
  /**
  * Covered monitors of the account (up to 500); a new list replaces coverage. Default: []. The id of a vigil_monitor (write its .id).
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/maintenance#monitor_ids Maintenance#monitor_ids}
  */
  readonly monitorIds?: string[];
  /**
  * Name.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/maintenance#name Maintenance#name}
  */
  readonly name: string;
  /**
  * weekly recurs every 7 days from `from`, at the same wall-clock times in the account's time zone (an occurrence may last at most 7 days). One of: "none", "weekly". Default: "none".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/maintenance#repeat Maintenance#repeat}
  */
  readonly repeat?: string;
  /**
  * Show on status page. Default: false.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/maintenance#show_on_status_page Maintenance#show_on_status_page}
  */
  readonly showOnStatusPage?: boolean | cdktf.IResolvable;
  /**
  * Hold back alerts while active. Default: true.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/maintenance#suppress_alerts Maintenance#suppress_alerts}
  */
  readonly suppressAlerts?: boolean | cdktf.IResolvable;
  /**
  * End, Unix seconds; after from.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/maintenance#to Maintenance#to}
  */
  readonly to: number;
}
export interface MaintenanceOccurrence {
}

export function maintenanceOccurrenceToTerraform(struct?: MaintenanceOccurrence): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
  }
}


export function maintenanceOccurrenceToHclTerraform(struct?: MaintenanceOccurrence): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
  };
  return attrs;
}

export class MaintenanceOccurrenceOutputReference extends cdktf.ComplexObject {
  private isEmptyObject = false;

  /**
  * @param terraformResource The parent resource
  * @param terraformAttribute The attribute on the parent resource this class is referencing
  */
  public constructor(terraformResource: cdktf.IInterpolatingParent, terraformAttribute: string) {
    super(terraformResource, terraformAttribute, false);
  }

  public get internalValue(): MaintenanceOccurrence | undefined {
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: MaintenanceOccurrence | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
    }
  }

  // from - computed: true, optional: false, required: false
  public get from() {
    return this.getNumberAttribute('from');
  }

  // to - computed: true, optional: false, required: false
  public get to() {
    return this.getNumberAttribute('to');
  }
}

/**
* Represents a {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/maintenance vigil_maintenance}
*/
export class Maintenance extends cdktf.TerraformResource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "vigil_maintenance";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTF code for importing a Maintenance resource upon running "cdktf plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the Maintenance to import
  * @param importFromId The id of the existing Maintenance that should be imported. Refer to the {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/maintenance#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the Maintenance to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktf.TerraformProvider) {
        return new cdktf.ImportableResource(scope, importToId, { terraformResourceType: "vigil_maintenance", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/maintenance vigil_maintenance} Resource
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options MaintenanceConfig
  */
  public constructor(scope: Construct, id: string, config: MaintenanceConfig) {
    super(scope, id, {
      terraformResourceType: 'vigil_maintenance',
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
    this._excludeFromStats = config.excludeFromStats;
    this._from = config.from;
    this._monitorIds = config.monitorIds;
    this._name = config.name;
    this._repeat = config.repeat;
    this._showOnStatusPage = config.showOnStatusPage;
    this._suppressAlerts = config.suppressAlerts;
    this._to = config.to;
  }

  // ==========
  // ATTRIBUTES
  // ==========

  // created - computed: true, optional: false, required: false
  public get created() {
    return this.getNumberAttribute('created');
  }

  // exclude_from_stats - computed: true, optional: true, required: false
  private _excludeFromStats?: boolean | cdktf.IResolvable; 
  public get excludeFromStats() {
    return this.getBooleanAttribute('exclude_from_stats');
  }
  public set excludeFromStats(value: boolean | cdktf.IResolvable) {
    this._excludeFromStats = value;
  }
  public resetExcludeFromStats() {
    this._excludeFromStats = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get excludeFromStatsInput() {
    return this._excludeFromStats;
  }

  // from - computed: false, optional: false, required: true
  private _from?: number; 
  public get from() {
    return this.getNumberAttribute('from');
  }
  public set from(value: number) {
    this._from = value;
  }
  // Temporarily expose input value. Use with caution.
  public get fromInput() {
    return this._from;
  }

  // id - computed: true, optional: false, required: false
  public get id() {
    return this.getStringAttribute('id');
  }

  // monitor_ids - computed: true, optional: true, required: false
  private _monitorIds?: string[]; 
  public get monitorIds() {
    return cdktf.Fn.tolist(this.getListAttribute('monitor_ids'));
  }
  public set monitorIds(value: string[]) {
    this._monitorIds = value;
  }
  public resetMonitorIds() {
    this._monitorIds = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get monitorIdsInput() {
    return this._monitorIds;
  }

  // name - computed: false, optional: false, required: true
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

  // occurrence - computed: true, optional: false, required: false
  private _occurrence = new MaintenanceOccurrenceOutputReference(this, "occurrence");
  public get occurrence() {
    return this._occurrence;
  }

  // repeat - computed: true, optional: true, required: false
  private _repeat?: string; 
  public get repeat() {
    return this.getStringAttribute('repeat');
  }
  public set repeat(value: string) {
    this._repeat = value;
  }
  public resetRepeat() {
    this._repeat = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get repeatInput() {
    return this._repeat;
  }

  // show_on_status_page - computed: true, optional: true, required: false
  private _showOnStatusPage?: boolean | cdktf.IResolvable; 
  public get showOnStatusPage() {
    return this.getBooleanAttribute('show_on_status_page');
  }
  public set showOnStatusPage(value: boolean | cdktf.IResolvable) {
    this._showOnStatusPage = value;
  }
  public resetShowOnStatusPage() {
    this._showOnStatusPage = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get showOnStatusPageInput() {
    return this._showOnStatusPage;
  }

  // state - computed: true, optional: false, required: false
  public get state() {
    return this.getStringAttribute('state');
  }

  // suppress_alerts - computed: true, optional: true, required: false
  private _suppressAlerts?: boolean | cdktf.IResolvable; 
  public get suppressAlerts() {
    return this.getBooleanAttribute('suppress_alerts');
  }
  public set suppressAlerts(value: boolean | cdktf.IResolvable) {
    this._suppressAlerts = value;
  }
  public resetSuppressAlerts() {
    this._suppressAlerts = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get suppressAlertsInput() {
    return this._suppressAlerts;
  }

  // to - computed: false, optional: false, required: true
  private _to?: number; 
  public get to() {
    return this.getNumberAttribute('to');
  }
  public set to(value: number) {
    this._to = value;
  }
  // Temporarily expose input value. Use with caution.
  public get toInput() {
    return this._to;
  }

  // updated - computed: true, optional: false, required: false
  public get updated() {
    return this.getNumberAttribute('updated');
  }

  // =========
  // SYNTHESIS
  // =========

  protected override synthesizeAttributes(): { [name: string]: any } {
    return {
      exclude_from_stats: cdktf.booleanToTerraform(this._excludeFromStats),
      from: cdktf.numberToTerraform(this._from),
      monitor_ids: cdktf.listMapper(cdktf.stringToTerraform, false)(this._monitorIds),
      name: cdktf.stringToTerraform(this._name),
      repeat: cdktf.stringToTerraform(this._repeat),
      show_on_status_page: cdktf.booleanToTerraform(this._showOnStatusPage),
      suppress_alerts: cdktf.booleanToTerraform(this._suppressAlerts),
      to: cdktf.numberToTerraform(this._to),
    };
  }

  protected override synthesizeHclAttributes(): { [name: string]: any } {
    const attrs = {
      exclude_from_stats: {
        value: cdktf.booleanToHclTerraform(this._excludeFromStats),
        isBlock: false,
        type: "simple",
        storageClassType: "boolean",
      },
      from: {
        value: cdktf.numberToHclTerraform(this._from),
        isBlock: false,
        type: "simple",
        storageClassType: "number",
      },
      monitor_ids: {
        value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(this._monitorIds),
        isBlock: false,
        type: "set",
        storageClassType: "stringList",
      },
      name: {
        value: cdktf.stringToHclTerraform(this._name),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      repeat: {
        value: cdktf.stringToHclTerraform(this._repeat),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      show_on_status_page: {
        value: cdktf.booleanToHclTerraform(this._showOnStatusPage),
        isBlock: false,
        type: "simple",
        storageClassType: "boolean",
      },
      suppress_alerts: {
        value: cdktf.booleanToHclTerraform(this._suppressAlerts),
        isBlock: false,
        type: "simple",
        storageClassType: "boolean",
      },
      to: {
        value: cdktf.numberToHclTerraform(this._to),
        isBlock: false,
        type: "simple",
        storageClassType: "number",
      },
    };

    // remove undefined attributes
    return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined ))
  }
}
