import type { CallResult, Client } from "../../helpers/sandbox.ts";

/** A call's status, or `reset` when the sandbox reset the connection instead of answering. */
export async function outcome(call: Promise<CallResult>): Promise<number | "reset"> {
  try {
    return (await call).status;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ECONNRESET" || code === "UND_ERR_SOCKET") return "reset";
    throw error;
  }
}

/** The ids of an account's monitors. */
export async function monitorIds(c: Client): Promise<string[]> {
  const res = await c.get("/monitor?limit=500");
  if (res.status !== 200) throw new Error(`monitor list: ${res.status} ${res.text}`);
  return res.body.data.map((m: { id: string }) => m.id);
}

export const monitorBody = (path: string) => ({
  type: "http",
  url: `https://example.com/${path}`,
  locations: { pools: ["allworld"] },
});
