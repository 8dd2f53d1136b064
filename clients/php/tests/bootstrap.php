<?php

error_reporting(E_ALL);
ini_set('display_errors', 'stderr');

require __DIR__ . '/../autoload.php';
require __DIR__ . '/Support/Stack.php';
require __DIR__ . '/Support/ScriptServer.php';
require __DIR__ . '/Support/OfflineVectors.php';
require __DIR__ . '/Support/Thrown.php';
