/** The dashboard's default address (a light module: the CLI's help text reads it without loading the server). */
export const DEFAULT_PORT = 8737;
export const DEFAULT_HOST = "127.0.0.1";
