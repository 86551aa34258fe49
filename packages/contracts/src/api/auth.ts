import { Type, type Static } from "@sinclair/typebox";
import { StatusFail, StatusOk } from "./common.js";

export const LoginBodySchema = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 255 }),
  password: Type.String({ minLength: 1, maxLength: 255 }),
  as: Type.Optional(Type.String({ maxLength: 255, description: "an administrator's credentials with another user's email: that user's user_api_hash" })),
});
export type LoginBody = Static<typeof LoginBodySchema>;

export const LoginResponseSchema = Type.Object({ status: StatusOk, user_api_hash: Type.String() });
/** The login refused: `message` as the vendor's clients read it, and `error` as every other failure says it. */
export const WrongCredentialsSchema = Type.Object({ status: StatusFail, message: Type.String(), error: Type.String() });

export const UserDataSchema = Type.Object({
  email: Type.String(),
  expiration_date: Type.Union([Type.Null(), Type.String()]),
  days_left: Type.Union([Type.Null(), Type.Integer()]),
  plan: Type.String(),
  devices_limit: Type.Integer({ description: "0 means no limit" }),
  group_id: Type.Integer({ description: "1 administrator, 2 user" }),
});
export type UserData = Static<typeof UserDataSchema>;
