/**
 * The key that ends a recording unless told otherwise: Pause, which no common app binds.
 * Its own file so the CLI's option default and the service read it without loading the
 * recorder (sharp, the accessibility reader) at start-up.
 */
export const DEFAULT_STOP_KEY = 'Pause';
