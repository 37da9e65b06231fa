import { ApiError, mapErrorResponse, networkError } from './errorMapper';
import { API_URL, refreshAccessToken } from './httpClient';
import { getAccessToken } from './session';

/**
 * A multipart POST or PUT reporting upload progress (0–100). `fetch` cannot report an upload's
 * progress, so these calls use XMLHttpRequest; a 401 refreshes the session once.
 */
export async function sendForm<T, Answer extends { data: T } = { data: T; message?: string }>(
  method: 'POST' | 'PUT',
  path: string,
  fields: Record<string, string>,
  files: Record<string, File[]>,
  onProgress: (percent: number) => void,
): Promise<Answer> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  for (const [field, list] of Object.entries(files)) for (const file of list) form.append(field, file, file.name);
  const send = () =>
    new Promise<{ status: number; body: unknown }>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open(method, `${API_URL}/${path}`);
      const token = getAccessToken();
      if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
      xhr.setRequestHeader('Accept', 'application/json');
      xhr.upload.onprogress = (event) => event.lengthComputable && onProgress(Math.round((event.loaded / event.total) * 100));
      xhr.onload = () => {
        let body: unknown;
        try {
          body = JSON.parse(xhr.responseText);
        } catch {
          body = xhr.responseText;
        }
        resolve({ status: xhr.status, body });
      };
      xhr.onerror = () => reject(new ApiError(networkError()));
      xhr.send(form);
    });
  let answer = await send();
  if (answer.status === 401 && (await refreshAccessToken())) answer = await send();
  if (answer.status >= 200 && answer.status < 300) return answer.body as Answer;
  throw new ApiError(mapErrorResponse(answer.status, answer.body), answer.body);
}
