-- Deposit and withdrawal requests from end users, the coupons a deposit may carry, and the
-- system account that holds withdrawals between request and decision.

-- Accounts of the platform itself, outside the admin tree: 'withdrawal-reserve' holds what
-- pending withdrawals took from their users, so nobody spends it twice.
CREATE TABLE system_accounts (
  id       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name     text NOT NULL UNIQUE,
  balance  bigint NOT NULL DEFAULT 0 CHECK (balance >= 0)
);
INSERT INTO system_accounts (name) VALUES ('withdrawal-reserve');

ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_account_kind_check;
ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_account_kind_check CHECK (account_kind IN ('admin', 'user', 'system'));
ALTER TABLE ledger_transfers DROP CONSTRAINT ledger_transfers_kind_check;
ALTER TABLE ledger_transfers ADD CONSTRAINT ledger_transfers_kind_check CHECK (kind IN (
  'opening', 'deposit', 'withdraw',
  'request-deposit', 'main-bonus', 'bonus', 'coupon-bonus',
  'withdraw-reserve', 'withdraw-return', 'withdraw-payout'
));

CREATE TABLE coupons (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  coupon_code  text NOT NULL UNIQUE CHECK (coupon_code = upper(coupon_code) AND coupon_code <> ''),
  -- A percentage of the credited amount, 2 decimals.
  bonus        numeric(7, 2) NOT NULL CHECK (bonus > 0),
  created_at   timestamptz NOT NULL DEFAULT now()
);
INSERT INTO coupons (coupon_code, bonus) VALUES ('WELCOME10', 10), ('BOOST5', 5);

-- status: 0 pending, 1 success, 2 fail. Money in minor units; a USDT request's amount is in
-- USDT, and `credited` is what the decision paid in INR (amount × the entered rate).
CREATE TABLE deposit_requests (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id       bigint NOT NULL REFERENCES users (id),
  amount        bigint NOT NULL CHECK (amount > 0),
  type          smallint NOT NULL CHECK (type IN (0, 1, 2)),
  utr           text NOT NULL,
  coupon_code   text,
  image         text,
  status        smallint NOT NULL DEFAULT 0 CHECK (status IN (0, 1, 2)),
  usdt_rate     bigint,
  credited      bigint NOT NULL DEFAULT 0,
  main_bonus    bigint NOT NULL DEFAULT 0,
  bonus         bigint NOT NULL DEFAULT 0,
  coupon_bonus  bigint NOT NULL DEFAULT 0,
  total_bonus   bigint NOT NULL DEFAULT 0,
  decided_at    timestamptz,
  decided_by    bigint REFERENCES admins (id),
  created_at    timestamptz NOT NULL DEFAULT now(),
  CHECK ((status = 0) = (decided_at IS NULL))
);
CREATE INDEX deposit_requests_status_created_idx ON deposit_requests (status, created_at DESC, id DESC);
CREATE INDEX deposit_requests_status_amount_idx ON deposit_requests (status, amount, id);
CREATE INDEX deposit_requests_user_idx ON deposit_requests (user_id, created_at DESC, id DESC);
CREATE INDEX deposit_requests_image_idx ON deposit_requests (image) WHERE image IS NOT NULL;

CREATE TABLE withdraw_requests (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id     bigint NOT NULL REFERENCES users (id),
  amount      bigint NOT NULL CHECK (amount > 0),
  -- {holder, bank, accNo, ifsc, branch}
  bank        jsonb NOT NULL,
  remark      text,
  status      smallint NOT NULL DEFAULT 0 CHECK (status IN (0, 1, 2)),
  decided_at  timestamptz,
  decided_by  bigint REFERENCES admins (id),
  created_at  timestamptz NOT NULL DEFAULT now(),
  CHECK ((status = 0) = (decided_at IS NULL))
);
CREATE INDEX withdraw_requests_status_created_idx ON withdraw_requests (status, created_at DESC, id DESC);
CREATE INDEX withdraw_requests_status_amount_idx ON withdraw_requests (status, amount, id);
CREATE INDEX withdraw_requests_user_idx ON withdraw_requests (user_id, created_at DESC, id DESC);

-- Search by UTR (substring, case-insensitive) through trigrams, like usernames (migration 002).
DO $$
DECLARE
  trgm_schema text;
BEGIN
  SELECT n.nspname INTO trgm_schema
    FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
   WHERE e.extname = 'pg_trgm';
  EXECUTE format('CREATE INDEX deposit_requests_utr_trgm_idx ON deposit_requests USING gin (lower(utr) %I.gin_trgm_ops)', trgm_schema);
END
$$;
