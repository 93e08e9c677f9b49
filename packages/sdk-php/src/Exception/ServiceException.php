<?php

declare(strict_types=1);

namespace PurchaseProtection\Exception;

/** Implemented by every exception the SDK throws: `catch (ServiceException $e)`. */
interface ServiceException extends \Throwable
{
}
