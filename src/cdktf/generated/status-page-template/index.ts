// Generated from provider.json by @cdktf/provider-generator 0.21.0 and tools/cdktf/generate.ts (npm run generate). Do not edit.
// https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/status_page_template
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktf from 'cdktf';

// Configuration

export interface StatusPageTemplateConfig extends cdktf.TerraformMetaArguments {
  /**
  * Default impact of the incidents declared from it. One of: "minor", "major". Changing it replaces the resource.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/status_page_template#impact StatusPageTemplate#impact}
  */
  readonly impact?: string;
  /**
  * Message. Changing it replaces the resource.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/status_page_template#message StatusPageTemplate#message}
  */
  readonly message: string;
  /**
  * The page it belongs to. The id of a vigil_status_page (write its .id). Changing it replaces the resource.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/status_page_template#page_id StatusPageTemplate#page_id}
  */
  readonly pageId: string;
  /**
  * Title. Changing it replaces the resource.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/status_page_template#title StatusPageTemplate#title}
  */
  readonly title: string;
}

/**
* Represents a {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/status_page_template vigil_status_page_template}
*/
export class StatusPageTemplate extends cdktf.TerraformResource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "vigil_status_page_template";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTF code for importing a StatusPageTemplate resource upon running "cdktf plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the StatusPageTemplate to import
  * @param importFromId The id of the existing StatusPageTemplate that should be imported. Refer to the {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/status_page_template#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the StatusPageTemplate to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktf.TerraformProvider) {
        return new cdktf.ImportableResource(scope, importToId, { terraformResourceType: "vigil_status_page_template", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/status_page_template vigil_status_page_template} Resource
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options StatusPageTemplateConfig
  */
  public constructor(scope: Construct, id: string, config: StatusPageTemplateConfig) {
    super(scope, id, {
      terraformResourceType: 'vigil_status_page_template',
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
    this._impact = config.impact;
    this._message = config.message;
    this._pageId = config.pageId;
    this._title = config.title;
  }

  // ==========
  // ATTRIBUTES
  // ==========

  // created - computed: true, optional: false, required: false
  public get created() {
    return this.getNumberAttribute('created');
  }

  // id - computed: true, optional: false, required: false
  public get id() {
    return this.getStringAttribute('id');
  }

  // impact - computed: true, optional: true, required: false
  private _impact?: string; 
  public get impact() {
    return this.getStringAttribute('impact');
  }
  public set impact(value: string) {
    this._impact = value;
  }
  public resetImpact() {
    this._impact = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get impactInput() {
    return this._impact;
  }

  // message - computed: false, optional: false, required: true
  private _message?: string; 
  public get message() {
    return this.getStringAttribute('message');
  }
  public set message(value: string) {
    this._message = value;
  }
  // Temporarily expose input value. Use with caution.
  public get messageInput() {
    return this._message;
  }

  // page_id - computed: false, optional: false, required: true
  private _pageId?: string; 
  public get pageId() {
    return this.getStringAttribute('page_id');
  }
  public set pageId(value: string) {
    this._pageId = value;
  }
  // Temporarily expose input value. Use with caution.
  public get pageIdInput() {
    return this._pageId;
  }

  // title - computed: false, optional: false, required: true
  private _title?: string; 
  public get title() {
    return this.getStringAttribute('title');
  }
  public set title(value: string) {
    this._title = value;
  }
  // Temporarily expose input value. Use with caution.
  public get titleInput() {
    return this._title;
  }

  // =========
  // SYNTHESIS
  // =========

  protected override synthesizeAttributes(): { [name: string]: any } {
    return {
      impact: cdktf.stringToTerraform(this._impact),
      message: cdktf.stringToTerraform(this._message),
      page_id: cdktf.stringToTerraform(this._pageId),
      title: cdktf.stringToTerraform(this._title),
    };
  }

  protected override synthesizeHclAttributes(): { [name: string]: any } {
    const attrs = {
      impact: {
        value: cdktf.stringToHclTerraform(this._impact),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      message: {
        value: cdktf.stringToHclTerraform(this._message),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      page_id: {
        value: cdktf.stringToHclTerraform(this._pageId),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      title: {
        value: cdktf.stringToHclTerraform(this._title),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
    };

    // remove undefined attributes
    return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined ))
  }
}
