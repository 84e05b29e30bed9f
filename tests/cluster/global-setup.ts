/** Starts the cluster afresh (both databases dropped, migrated and seeded once) before the scenario. */
import { execFileSync } from "node:child_process";
import { CLUSTER_ENV } from "./cluster";

export const cluster = (command: "reset" | "start" | "stop") =>
  execFileSync("bash", ["scripts/cluster.sh", command], { env: { ...process.env, ...CLUSTER_ENV }, stdio: "inherit" });

export default function globalSetup() {
  cluster("reset");
  try {
    cluster("start");
  } catch (error) {
    // Whatever did start stops: a start that failed half-way leaves no process behind.
    cluster("stop");
    throw error;
  }
}
