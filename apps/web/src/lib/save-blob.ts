/**
 * Hands a downloaded file to the browser under `fileName`. Authenticated downloads are fetched with the
 * bearer header, so they cannot be plain links: the blob becomes an object URL behind a link clicked once.
 */
export function saveBlob(blob: Blob, fileName: string): void {
  const objectUrl = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = objectUrl;
    link.download = fileName;
    link.rel = 'noopener';
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // Give the browser a moment to start the download before the URL goes.
    setTimeout(() => URL.revokeObjectURL(objectUrl), 1_000);
  }
}
