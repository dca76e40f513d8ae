// Generated from provider.json by @cdktf/provider-generator 0.21.0 and tools/cdktf/generate.ts (npm run generate). Do not edit.
// https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/status_page
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktf from 'cdktf';

// Configuration

export interface StatusPageConfig extends cdktf.TerraformMetaArguments {
  /**
  * Written whole by PUT /statuspage/{id}/component.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/status_page#components StatusPage#components}
  */
  readonly components?: StatusPageComponents[] | cdktf.IResolvable;
  /**
  * Host name the page is also served at; unique in the service. Default: null.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/status_page#custom_domain StatusPage#custom_domain}
  */
  readonly customDomain?: string;
  /**
  * Description. Default: null.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/status_page#description StatusPage#description}
  */
  readonly description?: string;
  /**
  * Public address, unique in the service; permanent. Changing it replaces the resource.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/status_page#slug StatusPage#slug}
  */
  readonly slug: string;
  /**
  * Theme. One of: "light", "dark", "auto". Default: "auto".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/status_page#theme StatusPage#theme}
  */
  readonly theme?: string;
  /**
  * Title.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/status_page#title StatusPage#title}
  */
  readonly title: string;
}
export interface StatusPageComponents {
  /**
  * Manual state. One of: "operational", "degraded", "down".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/status_page#manual_state StatusPage#manual_state}
  */
  readonly manualState?: string;
  /**
  * Monitor id. The id of a vigil_monitor (write its .id).
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/status_page#monitor_id StatusPage#monitor_id}
  */
  readonly monitorId?: string;
  /**
  * Unique within the page.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/status_page#name StatusPage#name}
  */
  readonly name: string;
}

export function statusPageComponentsToTerraform(struct?: StatusPageComponents | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  return {
    manual_state: cdktf.stringToTerraform(struct!.manualState),
    monitor_id: cdktf.stringToTerraform(struct!.monitorId),
    name: cdktf.stringToTerraform(struct!.name),
  }
}


export function statusPageComponentsToHclTerraform(struct?: StatusPageComponents | cdktf.IResolvable): any {
  if (!cdktf.canInspect(struct) || cdktf.Tokenization.isResolvable(struct)) { return struct; }
  if (cdktf.isComplexElement(struct)) {
    throw new Error("A complex element was used as configuration, this is not supported: https://cdk.tf/complex-object-as-configuration");
  }
  const attrs = {
    manual_state: {
      value: cdktf.stringToHclTerraform(struct!.manualState),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    monitor_id: {
      value: cdktf.stringToHclTerraform(struct!.monitorId),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
    name: {
      value: cdktf.stringToHclTerraform(struct!.name),
      isBlock: false,
      type: "simple",
      storageClassType: "string",
    },
  };

  // remove undefined attributes
  return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined));
}

export class StatusPageComponentsOutputReference extends cdktf.ComplexObject {
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

  public get internalValue(): StatusPageComponents | cdktf.IResolvable | undefined {
    if (this.resolvableValue) {
      return this.resolvableValue;
    }
    let hasAnyValues = this.isEmptyObject;
    const internalValueResult: any = {};
    if (this._manualState !== undefined) {
      hasAnyValues = true;
      internalValueResult.manualState = this._manualState;
    }
    if (this._monitorId !== undefined) {
      hasAnyValues = true;
      internalValueResult.monitorId = this._monitorId;
    }
    if (this._name !== undefined) {
      hasAnyValues = true;
      internalValueResult.name = this._name;
    }
    return hasAnyValues ? internalValueResult : undefined;
  }

  public set internalValue(value: StatusPageComponents | cdktf.IResolvable | undefined) {
    if (value === undefined) {
      this.isEmptyObject = false;
      this.resolvableValue = undefined;
      this._manualState = undefined;
      this._monitorId = undefined;
      this._name = undefined;
    }
    else if (cdktf.Tokenization.isResolvable(value)) {
      this.isEmptyObject = false;
      this.resolvableValue = value;
    }
    else {
      this.isEmptyObject = Object.keys(value).length === 0;
      this.resolvableValue = undefined;
      this._manualState = value.manualState;
      this._monitorId = value.monitorId;
      this._name = value.name;
    }
  }

  // manual_state - computed: false, optional: true, required: false
  private _manualState?: string; 
  public get manualState() {
    return this.getStringAttribute('manual_state');
  }
  public set manualState(value: string) {
    this._manualState = value;
  }
  public resetManualState() {
    this._manualState = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get manualStateInput() {
    return this._manualState;
  }

  // monitor_id - computed: false, optional: true, required: false
  private _monitorId?: string; 
  public get monitorId() {
    return this.getStringAttribute('monitor_id');
  }
  public set monitorId(value: string) {
    this._monitorId = value;
  }
  public resetMonitorId() {
    this._monitorId = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get monitorIdInput() {
    return this._monitorId;
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
}

export class StatusPageComponentsList extends cdktf.ComplexList {
  public internalValue? : StatusPageComponents[] | cdktf.IResolvable

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
  public get(index: number): StatusPageComponentsOutputReference {
    return new StatusPageComponentsOutputReference(this.terraformResource, this.terraformAttribute, index, this.wrapsSet);
  }
}

/**
* Represents a {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/status_page vigil_status_page}
*/
export class StatusPage extends cdktf.TerraformResource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "vigil_status_page";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTF code for importing a StatusPage resource upon running "cdktf plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the StatusPage to import
  * @param importFromId The id of the existing StatusPage that should be imported. Refer to the {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/status_page#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the StatusPage to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktf.TerraformProvider) {
        return new cdktf.ImportableResource(scope, importToId, { terraformResourceType: "vigil_status_page", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link https://registry.terraform.io/providers/vigil/vigil/latest/docs/resources/status_page vigil_status_page} Resource
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options StatusPageConfig
  */
  public constructor(scope: Construct, id: string, config: StatusPageConfig) {
    super(scope, id, {
      terraformResourceType: 'vigil_status_page',
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
    this._components.internalValue = config.components;
    this._customDomain = config.customDomain;
    this._description = config.description;
    this._slug = config.slug;
    this._theme = config.theme;
    this._title = config.title;
  }

  // ==========
  // ATTRIBUTES
  // ==========

  // components - computed: false, optional: true, required: false
  private _components = new StatusPageComponentsList(this, "components", false);
  public get components() {
    return this._components;
  }
  public putComponents(value: StatusPageComponents[] | cdktf.IResolvable) {
    this._components.internalValue = value;
  }
  public resetComponents() {
    this._components.internalValue = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get componentsInput() {
    return this._components.internalValue;
  }

  // created - computed: true, optional: false, required: false
  public get created() {
    return this.getNumberAttribute('created');
  }

  // custom_domain - computed: true, optional: true, required: false
  private _customDomain?: string; 
  public get customDomain() {
    return this.getStringAttribute('custom_domain');
  }
  public set customDomain(value: string) {
    this._customDomain = value;
  }
  public resetCustomDomain() {
    this._customDomain = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get customDomainInput() {
    return this._customDomain;
  }

  // description - computed: true, optional: true, required: false
  private _description?: string; 
  public get description() {
    return this.getStringAttribute('description');
  }
  public set description(value: string) {
    this._description = value;
  }
  public resetDescription() {
    this._description = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get descriptionInput() {
    return this._description;
  }

  // id - computed: true, optional: false, required: false
  public get id() {
    return this.getStringAttribute('id');
  }

  // public_url - computed: true, optional: false, required: false
  public get publicUrl() {
    return this.getStringAttribute('public_url');
  }

  // slug - computed: false, optional: false, required: true
  private _slug?: string; 
  public get slug() {
    return this.getStringAttribute('slug');
  }
  public set slug(value: string) {
    this._slug = value;
  }
  // Temporarily expose input value. Use with caution.
  public get slugInput() {
    return this._slug;
  }

  // theme - computed: true, optional: true, required: false
  private _theme?: string; 
  public get theme() {
    return this.getStringAttribute('theme');
  }
  public set theme(value: string) {
    this._theme = value;
  }
  public resetTheme() {
    this._theme = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get themeInput() {
    return this._theme;
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

  // updated - computed: true, optional: false, required: false
  public get updated() {
    return this.getNumberAttribute('updated');
  }

  // =========
  // SYNTHESIS
  // =========

  protected override synthesizeAttributes(): { [name: string]: any } {
    return {
      components: cdktf.listMapper(statusPageComponentsToTerraform, false)(this._components.internalValue),
      custom_domain: cdktf.stringToTerraform(this._customDomain),
      description: cdktf.stringToTerraform(this._description),
      slug: cdktf.stringToTerraform(this._slug),
      theme: cdktf.stringToTerraform(this._theme),
      title: cdktf.stringToTerraform(this._title),
    };
  }

  protected override synthesizeHclAttributes(): { [name: string]: any } {
    const attrs = {
      components: {
        value: cdktf.listMapperHcl(statusPageComponentsToHclTerraform, false)(this._components.internalValue),
        isBlock: false,
        type: "list",
        storageClassType: "StatusPageComponentsList",
      },
      custom_domain: {
        value: cdktf.stringToHclTerraform(this._customDomain),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      description: {
        value: cdktf.stringToHclTerraform(this._description),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      slug: {
        value: cdktf.stringToHclTerraform(this._slug),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      theme: {
        value: cdktf.stringToHclTerraform(this._theme),
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
