/**
 * cdktf's stack matchers (`testingMatchers`: what `Testing.setupJest()` registers on jest's expect)
 * registered on vitest's expect. As in cdktf's jest adapter, an item matches when it contains the asserted
 * properties (`expect.objectContaining`), so nested partial matches and other asymmetric matchers work.
 * Properties use the synthesized (snake_case) names.
 */
import { testingMatchers } from "cdktf";
import { expect } from "vitest";

type TerraformConstructor = testingMatchers.TerraformConstructor;
type Properties = Record<string, unknown>;

function containsItemWith(items: unknown[], properties: Properties): boolean {
  if (Object.keys(properties).length === 0) return items.length > 0;
  return expect.arrayContaining([expect.objectContaining(properties)]).asymmetricMatch(items);
}

const { returnMatcherToJest } = testingMatchers;
const resourceMatcher = testingMatchers.getToHaveResourceWithProperties(containsItemWith);
const dataSourceMatcher = testingMatchers.getToHaveDataSourceWithProperties(containsItemWith);
const providerMatcher = testingMatchers.getToHaveProviderWithProperties(containsItemWith);

expect.extend({
  toHaveResource: (synth: string, type: TerraformConstructor) =>
    returnMatcherToJest(resourceMatcher(synth, type)),
  toHaveResourceWithProperties: (synth: string, type: TerraformConstructor, properties: Properties) =>
    returnMatcherToJest(resourceMatcher(synth, type, properties)),
  toHaveDataSource: (synth: string, type: TerraformConstructor) =>
    returnMatcherToJest(dataSourceMatcher(synth, type)),
  toHaveDataSourceWithProperties: (synth: string, type: TerraformConstructor, properties: Properties) =>
    returnMatcherToJest(dataSourceMatcher(synth, type, properties)),
  toHaveProvider: (synth: string, type: TerraformConstructor) =>
    returnMatcherToJest(providerMatcher(synth, type)),
  toHaveProviderWithProperties: (synth: string, type: TerraformConstructor, properties: Properties) =>
    returnMatcherToJest(providerMatcher(synth, type, properties)),
});

declare module "vitest" {
  interface Matchers<T = any> {
    toHaveResource(type: TerraformConstructor): T;
    toHaveResourceWithProperties(type: TerraformConstructor, properties: Properties): T;
    toHaveDataSource(type: TerraformConstructor): T;
    toHaveDataSourceWithProperties(type: TerraformConstructor, properties: Properties): T;
    toHaveProvider(type: TerraformConstructor): T;
    toHaveProviderWithProperties(type: TerraformConstructor, properties: Properties): T;
  }
}
