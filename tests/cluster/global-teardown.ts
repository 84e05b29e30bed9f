import { cluster } from "./global-setup";

export default function globalTeardown() {
  cluster("stop");
}
