import type { UploadSettings } from '../../domain/uploads/upload-settings.ts';
import type { AppDeps } from '../types.ts';

/** What upload routes receive: the app's dependencies and the process's upload settings. */
export type UploadRouteDeps = AppDeps & { uploads: UploadSettings };
