/**
 * A file a getter read: OSWorld's getters hand a metric the path of a local copy; here the
 * metric gets the path (for its sentences) and the bytes (null: the file is not there, as
 * OSWorld's get_vm_file gives None). Metrics stay pure: no function below reads the disk.
 */
export class VmFile {
  constructor(
    readonly path: string,
    readonly bytes: Buffer | null,
  ) {}
}
