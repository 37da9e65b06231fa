import { ApiError, mapErrorResponse, networkError } from './errorMapper';
import { getAccessToken } from './session';

/** Fetches a private file with the session and hands it to the browser as a download. */
export async function download(url: string, fallbackName: string): Promise<void> {
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
  const blob = await response.blob();
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = encoded ? decodeURIComponent(encoded) : (plain ?? fallbackName);
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

