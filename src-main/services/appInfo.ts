/** The application's name and version, as reports and the command line state them. */
import pkg from '../../package.json' with { type: 'json' };

export const APP_NAME = 'Interfere';
export const APP_VERSION: string = pkg.version;
