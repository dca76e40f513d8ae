import { afterAll, beforeAll, expect, it } from "vitest";
import { monitor } from "../../helpers/fixtures.ts";
import { type Client, startTestSandbox, type TestSandbox } from "../../helpers/sandbox.ts";

/** `GET /monitor/{id}/result/{resultId}/snapshot`: a simulated check takes no snapshot. */
let sb: TestSandbox;
let acct: Client & { accountId: string };
beforeAll(async () => {
  sb = await startTestSandbox();
  acct = await sb.account();
});
afterAll(() => sb.close());

it("answers 404 no_snapshot for a result that exists, and a plain 404 for one that does not", async () => {
  const id = await monitor(acct);
  const { resultId } = (await sb.admin.post(`/_sandbox/monitor/${id}/outcome`, { state: "down" })).body;
  expect((await acct.get(`/monitor/${id}/result/${resultId}`)).status).toBe(200);

  const none = await acct.get(`/monitor/${id}/result/${resultId}/snapshot`);
  expect(none.status).toBe(404);
  expect(none.body.code).toBe("not_found");
  expect(none.body.errors).toEqual([{ pointer: "/resultId", value: resultId, reason: "no_snapshot" }]);

  const unknown = await acct.get(`/monitor/${id}/result/res_0000/snapshot`);
  expect(unknown.status).toBe(404);
  expect(unknown.body.errors?.[0]?.reason).not.toBe("no_snapshot");

  const other = await sb.account();
  expect((await other.get(`/monitor/${id}/result/${resultId}/snapshot`)).status).toBe(404);
});
