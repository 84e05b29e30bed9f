/**
 * The console's upstream addresses under `npm start`: each one set in the environment is kept,
 * the others point at the platform on PLATFORM_PORT, so a platform moved off port 4000 is still
 * the one the console calls (the console's own defaults, app/lib/env.server.ts, know only 4000).
 */
export function consoleUpstream(env: Readonly<Record<string, string | undefined>>, platformPort: string): Record<"ADMIN_API_URL" | "SPORTS_API_URL" | "SOCKET_URL", string> {
  const platform = `http://127.0.0.1:${platformPort}`;
  return {
    ADMIN_API_URL: env.ADMIN_API_URL || `${platform}/api/admin`,
    SPORTS_API_URL: env.SPORTS_API_URL || `${platform}/api/sports`,
    SOCKET_URL: env.SOCKET_URL || platform,
  };
}
