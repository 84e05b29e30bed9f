import { pipeline, Readable } from "node:stream";
import { CALLS } from "../../../protocol/calls.js";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { GAME_FLAGS, NAMED_ACCOUNTS_MAX } from "../../../protocol/wire.js";
import { csvStream } from "../../csv.js";
import { authenticated, requireStaffFlag, requireSuperAdmin } from "../auth/access.js";
import type { ZodTypeProvider } from "../../plugins/validation.js";
import { Username } from "../../validation/accounts.js";
import { blankless, exactIssue, Id, Money, Paging, Text } from "../../validation/schemas.js";
import { NewPassword } from "../../security/password.js";
import { ACCOUNT_MESSAGE, createAccountService, type PartnerRow, type UserRow } from "./service.js";

/** Comma-separated items, each read by `item`: 1 to NAMED_ACCOUNTS_MAX of them. */
const CommaList = <T extends z.ZodTypeAny>(item: T) =>
  z
    .string()
    .transform((text) => text.split(","))
    .pipe(z.array(item).min(1).max(NAMED_ACCOUNTS_MAX, `At most ${NAMED_ACCOUNTS_MAX} accounts a lookup`));

const ListQuery = Paging.extend({
  username: blankless(Text({ max: 64 }).optional()),
  usernames: blankless(CommaList(Text({ min: 1, max: 64 })).optional()),
  // Any text: what cannot be an id here (not digits) matches nothing, as an unknown id does.
  ids: blankless(
    CommaList(Text({ min: 1, max: 64 }))
      .transform((ids) => ids.flatMap((id) => Id.safeParse(id).data ?? []))
      .optional(),
  ),
  orderBy: blankless(z.enum(["_id", "username", "balance", "bonus", "createdAt"]).default("createdAt")),
  isAcc: z.string().optional().transform((value) => value === "true"),
  partner: blankless(Id.optional()),
});

const DownloadQuery = ListQuery.pick({ username: true, partner: true }).extend({
  type: blankless(z.enum(["users", "partners"]).default("users")),
});

const MobNo = blankless(z.string().trim().regex(/^\d{7,15}$/, "Mobile number must be 7 to 15 digits").optional());

const GameFlagMap = z.object(Object.fromEntries(GAME_FLAGS.map((flag) => [flag, z.boolean().optional()]))).strict();

const INVALID_SHARE = "Invalid share value";
// Every game flag needs a share (spec: at least 6, and there are 6 flags), each a percentage.
const ShareMap = z.object(Object.fromEntries(GAME_FLAGS.map((flag) => [flag, z.number().finite().min(0).max(100)]))).strict();

const AddUserBody = z
  .object({
    username: Username,
    password: NewPassword,
    repeatPassword: z.string().max(128),
    mobNo: MobNo,
    permissions: GameFlagMap.default({}),
    isPartner: z.boolean().default(false),
    share: z.unknown().optional(),
    role: blankless(Id.optional()),
  })
  .transform(({ share, role, repeatPassword, isPartner, ...account }, ctx) => {
    if (account.password !== repeatPassword) {
      ctx.addIssue(exactIssue("Password and Confirm Password do not match"));
      return z.NEVER;
    }
    if (!isPartner) return { ...account, partner: null };
    const shares = ShareMap.safeParse(share);
    if (!shares.success) {
      ctx.addIssue(exactIssue(INVALID_SHARE));
      return z.NEVER;
    }
    if (role === undefined) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["role"], message: "Required" });
      return z.NEVER;
    }
    return { ...account, partner: { roleId: role, share: shares.data } };
  });

const MoneyBody = z.object({
  amount: Money,
  remark: Text({ max: 100, tooLong: "Remark must be at most 100 characters" }).optional(),
  user: Id,
  isPartner: z.boolean().default(false),
  requestId: Text({ min: 8, max: 64 }).optional(),
});

const ChangePasswordBody = z.object({ password: NewPassword, user: Id, isPartner: z.boolean().default(false) });

const ChangePermissionsBody = z.object({
  user: Id,
  isPartner: z.boolean().default(false),
  permissions: GameFlagMap,
  bet: z.boolean(),
  login: z.boolean(),
});

const IdParams = z.object({ id: Id });
const UserIdParams = z.object({ userId: Id });
const IsPartnerQuery = z.object({ isPartner: z.string().optional().transform((value) => value === "true") });

const CSV_COLUMNS = ["ID", "Username", "Mob No", "Balance", "Bonus", "Created Time"];

function csvRecord(row: UserRow | PartnerRow, withRole: boolean): string[] {
  const fields = [row._id, row.username, row.mobNo, row.balance.toFixed(2), row.bonus.toFixed(2), row.createdAt];
  return withRole ? [...fields, (row as PartnerRow).roleName] : fields;
}

export default async function accountsRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const accounts = createAccountService({ db: app.db, revealer: app.revealer });
  const desk = { onRequest: requireStaffFlag("users", { partners: true }) };

  api.get(CALLS.users.path, { ...desk, schema: { querystring: ListQuery } }, async (request, reply) => {
    return reply.ok(await accounts.users(authenticated(request).admin, request.query));
  });

  api.get(CALLS.partners.path, { ...desk, schema: { querystring: ListQuery } }, async (request, reply) => {
    return reply.ok(await accounts.partners(authenticated(request).admin, request.query));
  });

  // A file, not the envelope: the console saves the body as it comes.
  api.get(CALLS.downloadUsers.path, { ...desk, schema: { querystring: DownloadQuery } }, async (request, reply) => {
    const { type, ...query } = request.query;
    const rows = accounts.exportRows(authenticated(request).admin, query, type);
    // Pull the first row before answering, so a refusal (403) still gets the FAIL envelope.
    const first = await rows.next();
    const withRole = type === "partners";
    async function* records() {
      if (first.done) return;
      yield csvRecord(first.value, withRole);
      for await (const row of rows) yield csvRecord(row, withRole);
    }
    const csv = csvStream([...CSV_COLUMNS, ...(withRole ? ["Role"] : [])]);
    // The status line is sent by now: a failure mid-stream can only cut the file short.
    pipeline(Readable.from(records()), csv, (error) => error && request.log.error({ err: error }, "download-users failed"));
    const day = new Date().toISOString().slice(0, 10).replaceAll("-", "");
    return reply
      .type("text/csv; charset=utf-8")
      .header("content-disposition", `attachment; filename="${type}-${day}.csv"`)
      .send(csv);
  });

  api.post(CALLS.addUser.path, { ...desk, schema: { body: AddUserBody } }, async (request, reply) => {
    return reply.ok(await accounts.addAccount(authenticated(request).admin, request.body), ACCOUNT_MESSAGE.userAdded);
  });

  api.post(CALLS.userDeposit.path, { ...desk, schema: { body: MoneyBody } }, async (request, reply) => {
    return reply.ok(await accounts.deposit(authenticated(request).admin, request.body), ACCOUNT_MESSAGE.deposited);
  });

  api.post(CALLS.userWithdraw.path, { ...desk, schema: { body: MoneyBody } }, async (request, reply) => {
    return reply.ok(await accounts.withdraw(authenticated(request).admin, request.body), ACCOUNT_MESSAGE.withdrawn);
  });

  api.post(CALLS.changeUserPassword.path, { ...desk, schema: { body: ChangePasswordBody } }, async (request, reply) => {
    await accounts.changePassword(authenticated(request).admin, request.body);
    return reply.ok(null, ACCOUNT_MESSAGE.passwordChanged);
  });

  api.get(CALLS.userPermissions.path, { ...desk, schema: { params: IdParams } }, async (request, reply) => {
    return reply.ok(await accounts.permissions(authenticated(request).admin, request.params.id, false));
  });

  api.get(CALLS.partnerPermissions.path, { ...desk, schema: { params: IdParams } }, async (request, reply) => {
    return reply.ok(await accounts.permissions(authenticated(request).admin, request.params.id, true));
  });

  api.post(CALLS.changePermissions.path, { ...desk, schema: { body: ChangePermissionsBody } }, async (request, reply) => {
    await accounts.changePermissions(authenticated(request).admin, request.body);
    return reply.ok(null, ACCOUNT_MESSAGE.permissionsSaved);
  });

  api.get(
    CALLS.loginLogs.path,
    { ...desk, schema: { params: UserIdParams, querystring: IsPartnerQuery } },
    async (request, reply) => {
      const { admin } = authenticated(request);
      return reply.ok(await accounts.loginLogs(admin, request.params.userId, request.query.isPartner));
    },
  );

  api.get(CALLS.makeDefaultAdmin.path, { onRequest: requireSuperAdmin, schema: { params: IdParams } }, async (request, reply) => {
    await accounts.makeDefaultAdmin(request.params.id);
    return reply.ok(null, ACCOUNT_MESSAGE.defaultAdminChanged);
  });

  app.get(CALLS.partnerRoles.path, async (_request, reply) => reply.ok(await accounts.partnerRoles()));

  api.get(CALLS.defaultAdmin.path, { onRequest: requireStaffFlag("users") }, async (_request, reply) => {
    return reply.ok(await accounts.defaultAdmin());
  });
}
