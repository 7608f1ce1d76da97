// Copyright 2026 The rankd Authors. SPDX-License-Identifier: Apache-2.0
//
// rankd entry point: `rankd [config-file] [--name value ...]`.

int main(int argc, char** argv) { return 0; }
