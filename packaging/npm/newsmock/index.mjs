// ESM entry of @newssearch/newsmock: the CommonJS module's exports, by name.
import cjs from './index.js';

export const {
  start, setup, connect, binaryPath, Control, Mock, Newsmock, Remote, NewsmockError, VerifyError, LISTEN_PREFIX, KEY_HEADER,
} = cjs;
export default cjs;
