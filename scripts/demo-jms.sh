#!/usr/bin/env bash
# The JMS poison message step of `make demo` (called by scripts/demo.sh after
# the AMQP poison step, with the emulator still running).
#
# It deploys two integration flows whose JMS sender consumes a Cloud
# Integration JMS queue with SAP's default retry settings (1 minute, doubling,
# at most 60 minutes) and makes every execution end in an Error End:
# DemoJMSNoGuard has no retry guard, DemoJMSGuard5 ends the message when
# ${header.SAPJMSRetries} > 5. It puts one message on each queue and prints
# the executions beside what the retry rules predict; it fails when they
# differ. The emulator runs with a short -jms-minute, so the 30 days of the
# default expiration pass in seconds.
#
# Environment (set by scripts/demo.sh): EMULATOR_URL,
# SAPMESSAGING_CLOUD_INTEGRATION_SERVICE_KEY, REPO, GO. JMS_POISON_TIMEOUT
# bounds the replay (default 90s).
set -euo pipefail

: "${EMULATOR_URL:?EMULATOR_URL is not set; run this through scripts/demo.sh}"
: "${SAPMESSAGING_CLOUD_INTEGRATION_SERVICE_KEY:?SAPMESSAGING_CLOUD_INTEGRATION_SERVICE_KEY is not set; run this through scripts/demo.sh}"
# shellcheck source=scripts/demo-replay.sh
. "$(dirname "$0")/demo-replay.sh" jms-poison

replay_build jmspoison
replay_run 120s "${tmp}/jmspoison" -timeout "${JMS_POISON_TIMEOUT:-90s}"
