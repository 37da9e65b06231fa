import { ApiError, mapErrorResponse, networkError } from './errorMapper';
import { getAccessToken } from './session';

/** Fetches a file with the session and hands it to the browser as a download; returns the file name. */
export async function downloadFile(url: string, fallbackName: string): Promise<string> {
  const token = getAccessToken();
  const response = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} }).catch(() => {
    throw new ApiError(networkError());
  });
  if (!response.ok) {
    const body = await response.json().catch(() => null);
    throw new ApiError(mapErrorResponse(response.status, body), body);
  }
  const disposition = response.headers.get('content-disposition') ?? '';
  const encoded = /filename\*=UTF-8''([^;]+)/.exec(disposition)?.[1];
  const plain = /filename="([^"]+)"/.exec(disposition)?.[1];
  const name = encoded ? decodeURIComponent(encoded) : (plain ?? fallbackName);
  const blob = await response.blob();
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  return name;
}

/** The same, for callers that need no file name back. */
export async function download(url: string, fallbackName: string): Promise<void> {
  await downloadFile(url, fallbackName);
}
