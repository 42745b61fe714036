import { type PasswordChangeBody, type ProfileUpdateBody, type User, userSchema } from '@haversack/contracts';
import { z } from 'zod';
import { API_V1, apiRequest } from '../../../lib/http-client';

const userResponseSchema = z.object({ user: userSchema });
const messageSchema = z.object({ message: z.string() });

export async function updateProfile(change: ProfileUpdateBody['user']): Promise<User> {
  const { data } = await apiRequest(`${API_V1}/users/me`, {
    method: 'PATCH',
    body: { user: change },
    schema: userResponseSchema,
  });
  return data.user;
}

export async function changePassword(body: PasswordChangeBody): Promise<string> {
  const { data } = await apiRequest(`${API_V1}/users/me/password`, {
    method: 'PUT',
    body,
    schema: messageSchema,
  });
  return data.message;
}
