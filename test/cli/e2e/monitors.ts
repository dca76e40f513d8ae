/** `count` http monitors named `prefix-N`, as GitOps YAML. */
export function monitorsYaml(count: number, prefix = "m"): string {
  let text = "monitors:\n";
  for (let i = 0; i < count; i++)
    text += `  ${prefix}-${i}:\n    type: http\n    url: https://${prefix}-${i}.example.com/health\n    name: ${prefix} ${i}\n    interval: 60\n    locations: { pools: [westeurope] }\n`;
  return text;
}
