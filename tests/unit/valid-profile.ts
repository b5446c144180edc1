/** A complete, valid target profile of made-up values, for the unit tests that load or use one: the required variables and no other. */
export const VALID_PROFILE: Readonly<Record<string, string>> = {
  TARGET_BASE_URL: 'https://api.example.test/',
  TARGET_REALTIME_URL: 'https://realtime.example.test/v2',
  TARGET_EMAIL: 'dev@example.test',
  TARGET_PASSWORD: 'pw-S3cret!',
  TARGET_API_KEY: 'key-0123456789',
  TARGET_ENVIRONMENT: 'development',
  TARGET_CLIENT_ID: 'client-abcdef',
  TARGET_SECRET: 'secret-fedcba',
};
