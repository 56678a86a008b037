# In a pull request's job, after npm ci and a checkout that fetched the base branch (actions/checkout with
# fetch-depth: 0): the contract as changed against main's. Exit 0 passes, 1 breaks, 2 is a usage mistake.
node_modules/.bin/animal-store-contract diff --base-ref origin/main contract/openapi.yaml \
  --markdown "${GITHUB_STEP_SUMMARY:-contract-diff.md}" --json contract-diff.json
