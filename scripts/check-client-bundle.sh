#!/usr/bin/env bash
# The browser bundle must carry neither the API secret's value nor the envelope library.
set -euo pipefail
secret="${API_SECRET:-betdesk-dev-api-secret}"
if grep -rqF -- "$secret" build/client; then
  echo "build/client contains API_SECRET's value" >&2
  exit 1
fi
if grep -rqi -- "crypto-js" build/client; then
  echo "build/client contains crypto-js" >&2
  exit 1
fi
echo "client bundle: no API secret, no crypto-js"
