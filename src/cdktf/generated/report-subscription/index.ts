// Generated from provider.json by @cdktf/provider-generator 0.21.0 and tools/cdktf/generate.ts (npm run generate). Do not edit.
// https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/report_subscription
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktf from 'cdktf';

// Configuration

export interface ReportSubscriptionConfig extends cdktf.TerraformMetaArguments {
  /**
  * Contact id. The id of a vigil_contact (write its .id). Changing it replaces the resource.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/report_subscription#contact_id ReportSubscription#contact_id}
  */
  readonly contactId: string;
  /**
  * The plan may refuse some (403 package_limit). One of: "daily", "weekly", "monthly", "quarterly", "yearly".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/report_subscription#frequencies ReportSubscription#frequencies}
  */
  readonly frequencies: string[];
  /**
  * Monitor id. The id of a vigil_monitor (write its .id). Changing it replaces the resource.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/report_subscription#monitor_id ReportSubscription#monitor_id}
  */
  readonly monitorId: string;
}

/**
* Represents a {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/report_subscription vigil_report_subscription}
*/
export class ReportSubscription extends cdktf.TerraformResource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "vigil_report_subscription";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTF code for importing a ReportSubscription resource upon running "cdktf plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the ReportSubscription to import
  * @param importFromId The id of the existing ReportSubscription that should be imported. Refer to the {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/report_subscription#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the ReportSubscription to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktf.TerraformProvider) {
        return new cdktf.ImportableResource(scope, importToId, { terraformResourceType: "vigil_report_subscription", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/report_subscription vigil_report_subscription} Resource
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options ReportSubscriptionConfig
  */
  public constructor(scope: Construct, id: string, config: ReportSubscriptionConfig) {
    super(scope, id, {
      terraformResourceType: 'vigil_report_subscription',
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
    this._contactId = config.contactId;
    this._frequencies = config.frequencies;
    this._monitorId = config.monitorId;
  }

  // ==========
  // ATTRIBUTES
  // ==========

  // contact_id - computed: false, optional: false, required: true
  private _contactId?: string; 
  public get contactId() {
    return this.getStringAttribute('contact_id');
  }
  public set contactId(value: string) {
    this._contactId = value;
  }
  // Temporarily expose input value. Use with caution.
  public get contactIdInput() {
    return this._contactId;
  }

  // created - computed: true, optional: false, required: false
  public get created() {
    return this.getNumberAttribute('created');
  }

  // frequencies - computed: false, optional: false, required: true
  private _frequencies?: string[]; 
  public get frequencies() {
    return cdktf.Fn.tolist(this.getListAttribute('frequencies'));
  }
  public set frequencies(value: string[]) {
    this._frequencies = value;
  }
  // Temporarily expose input value. Use with caution.
  public get frequenciesInput() {
    return this._frequencies;
  }

  // id - computed: true, optional: false, required: false
  public get id() {
    return this.getStringAttribute('id');
  }

  // monitor_id - computed: false, optional: false, required: true
  private _monitorId?: string; 
  public get monitorId() {
    return this.getStringAttribute('monitor_id');
  }
  public set monitorId(value: string) {
    this._monitorId = value;
  }
  // Temporarily expose input value. Use with caution.
  public get monitorIdInput() {
    return this._monitorId;
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
      contact_id: cdktf.stringToTerraform(this._contactId),
      frequencies: cdktf.listMapper(cdktf.stringToTerraform, false)(this._frequencies),
      monitor_id: cdktf.stringToTerraform(this._monitorId),
    };
  }

  protected override synthesizeHclAttributes(): { [name: string]: any } {
    const attrs = {
      contact_id: {
        value: cdktf.stringToHclTerraform(this._contactId),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      frequencies: {
        value: cdktf.listMapperHcl(cdktf.stringToHclTerraform, false)(this._frequencies),
        isBlock: false,
        type: "set",
        storageClassType: "stringList",
      },
      monitor_id: {
        value: cdktf.stringToHclTerraform(this._monitorId),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
    };

    // remove undefined attributes
    return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined ))
  }
}
