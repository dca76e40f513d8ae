import { createInterface } from "node:readline";
import { onInterrupt } from "./interrupt.ts";

/**
 * How a question was answered: `yes` approves (only that word, as in Terraform), `no` is any other
 * answer, `interrupted` is Ctrl+C (or SIGINT), `ended` is Ctrl+D or the end of the input.
 */
export type Answer = "yes" | "no" | "interrupted" | "ended";

/**
 * Asks on the terminal. Ctrl+C and Ctrl+D are answers too, never errors: the caller cancels and says so,
 * and whatever it holds (the state lock, the embedded sandbox) is released as after a "no".
 */
export function confirm(question: string): Promise<Answer> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  return new Promise((resolve) => {
    let settled = false;
    const settle = (answer: Answer) => {
      if (settled) return;
      settled = true;
      forgetSignal();
      // Ctrl+C and Ctrl+D leave the cursor after the prompt: the caller's message starts a line of its own.
      if (answer === "interrupted" || answer === "ended") process.stdout.write("\n");
      rl.close();
      resolve(answer);
    };
    const onSignal = () => settle("interrupted");
    // Ctrl+C on a terminal in raw mode reaches readline as a key; a SIGINT sent to the process (kill -INT,
    // Ctrl+C where the terminal is not raw) arrives as a signal. Either cancels.
    rl.on("SIGINT", onSignal);
    const forgetSignal = onInterrupt(onSignal);
    // Ctrl+D on an empty line, or stdin closing, closes the interface before an answer.
    rl.on("close", () => settle("ended"));
    rl.question(`${question}\n  Only 'yes' will be accepted to approve.\n\n  Enter a value: `, (answer) =>
      settle(answer.trim() === "yes" ? "yes" : "no"),
    );
  });
}
