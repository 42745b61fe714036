/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Origin of the API when it is not the page's own (e.g. http://127.0.0.1:3000); empty: same origin. */
  readonly VITE_API_BASE_URL?: string;
}
